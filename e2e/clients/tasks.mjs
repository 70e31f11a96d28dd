// A background task through the tasks extension's own client,
// @modelcontextprotocol/ext-tasks 0.2.2, on a 2026-07-28 connection of
// client 2.4.0: invoke_action_background starts a stream download, the
// session polls tasks/get until the task ends, and resultFromTaskOutcome
// unwraps the completed result. With ARGS.listen the client also opens a
// subscriptions/listen for the task (the extension's own filter helper adds
// taskIds), and the report records the honoured filter and every
// notifications/tasks seen on the wire. ARGS: {traceparent, params, listen}.
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { contributeTaskFilterV2, readAcceptedTaskIdsV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { connect, negotiated, report, args } from './lib.mjs';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const { client, transport } = await connect(TASKS);
const out = negotiated(client);
out.tasksAdvertised = client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/tasks'] ?? null;
out.sent = [];

// rawDispatch: the SDK's codec refuses resultType "task", so the session's
// tools/call and tasks/* go below it, on the same transport, with ids of
// their own; their responses are taken out before the client sees them.
const pending = new Map();
let next = 0;
const receive = transport.onmessage;
out.notified = [];
transport.onmessage = (m, extra) => {
  if (m.method === 'notifications/subscriptions/acknowledged') out.wireAck = m.params?.notifications ?? null;
  if (m.method === 'notifications/tasks') out.notified.push({ status: m.params?.status, taskId: m.params?.taskId, subscriptionId: m.params?._meta?.['io.modelcontextprotocol/subscriptionId'] ?? null });
  if (typeof m.id === 'string' && pending.has(m.id) && m.method === undefined) {
    const settle = pending.get(m.id);
    pending.delete(m.id);
    settle(m.error ? { kind: 'error', error: m.error } : { kind: 'result', result: m.result });
    return;
  }
  receive(m, extra);
};
function rawDispatch(request, options) {
  const id = `raw-${++next}`;
  out.sent.push(request.method);
  return new Promise((resolve, reject) => {
    pending.set(id, resolve);
    options?.signal?.addEventListener('abort', () => { pending.delete(id); reject(options.signal.reason); }, { once: true });
    transport.send({ jsonrpc: '2.0', id, ...request }).catch(reject);
  });
}

const session = createTaskSessionFromClient(client, {
  endpointId: 'snowluma-interop',
  rawDispatch,
  v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: { name: 'snowluma-interop', version: '1.0.0' }, clientCapabilities: TASKS },
});
try {
  const execution = await session.callTool('invoke_action_background',
    { action: 'download_file_stream', params: args.params }, { metadata: { traceparent: args.traceparent } });
  out.kind = execution.kind;
  out.taskId = execution.handle?.taskId ?? null;
  out.statuses = [];
  let sub;
  if (args.listen && out.taskId) {
    sub = await client.listen(contributeTaskFilterV2({}, [out.taskId]).notifications);
    // Client 2.4.0's listen() hands back honoredFilter decoded by its own
    // schema, which drops taskIds; the acknowledgement as received on the
    // wire is what the extension's helper reads.
    out.honoredTaskIds = readAcceptedTaskIdsV2({ notifications: out.wireAck });
  }
  const { outcome } = await execution.settle({
    onEvent: (e) => { if (e.type === 'task') out.statuses.push(e.task.status); },
  });
  out.outcome = outcome.status;
  out.result = resultFromTaskOutcome(outcome);
  await sub?.close();
} finally {
  await session.close();
  await client.close();
}
report(out);
