// Progress on a stream download. The call passes onprogress, so the client
// puts its own progressToken in _meta. Reported: the values onprogress saw,
// and the progress notifications on the wire before the call's response
// (client 2.4.0 runs notification handlers a microtask late, but drops a
// call's progress handler as soon as its response is read, so a final
// notification read in the same chunk as the response never reaches
// onprogress). ARGS: {traceparent, params}.
import { connect, negotiated, report, args, clientErrors } from './lib.mjs';

const { client, transport } = await connect();
const out = negotiated(client);
out.progress = [];
out.wire = [];
let answered = false;
const receive = transport.onmessage;
transport.onmessage = (m, extra) => {
  if (m.method === 'notifications/progress' && !answered) out.wire.push(m.params.progress);
  if (m.id !== undefined && m.method === undefined) answered = true;
  receive(m, extra);
};
try {
  out.result = await client.callTool(
    { name: 'invoke_action', arguments: { action: 'download_file_stream', params: args.params }, _meta: { traceparent: args.traceparent } },
    { onprogress: (p) => out.progress.push({ progress: p.progress, total: p.total ?? null }) },
  );
} finally {
  await client.close();
}
out.clientErrors = clientErrors;
report(out);
