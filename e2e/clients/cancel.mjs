// Cancelling a slow call with an AbortSignal: the client sends
// notifications/cancelled and rejects the call. The test says "go" on stdin
// once SnowLuma has the request; then a second call shows the session still
// serves. ARGS: {traceparent, params}.
import { connect, negotiated, errorOf, report, nextLine, args, clientErrors } from './lib.mjs';

const { client } = await connect();
const out = negotiated(client);
try {
  const abort = new AbortController();
  const call = client.callTool(
    { name: 'query_action', arguments: { action: 'get_status', params: args.params }, _meta: { traceparent: args.traceparent } },
    { signal: abort.signal },
  );
  const settled = call.then((r) => ({ result: r }), (e) => ({ error: errorOf(e) }));
  await nextLine();
  abort.abort('the user cancelled');
  Object.assign(out, await settled);
  out.after = await client.callTool({ name: 'query_action', arguments: { action: 'get_status' } });
} finally {
  await client.close();
}
out.clientErrors = clientErrors;
report(out);
