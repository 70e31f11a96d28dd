// Input completion: the client declares form elicitation and answers every
// elicitation/create with the scripted params_json. On 2026-07-28 the
// request arrives as an input_required result and the client retries the
// call (MRTR); on legacy it is a server-to-client request. ARGS:
// {traceparent, arguments, answer}.
import { connect, negotiated, report, args } from './lib.mjs';

const { client, transport } = await connect({ elicitation: { form: {} } });
const out = negotiated(client);
out.asked = [];
// What came over the wire tells the two deliveries apart.
out.wire = { serverRequests: 0, inputRequired: 0 };
const receive = transport.onmessage;
transport.onmessage = (m, extra) => {
  if (m.method === 'elicitation/create' && m.id !== undefined) out.wire.serverRequests++;
  if (m.result?.resultType === 'input_required') out.wire.inputRequired++;
  receive(m, extra);
};
client.setRequestHandler('elicitation/create', async (request) => {
  out.asked.push(request.params);
  return { action: 'accept', content: { params_json: args.answer } };
});
try {
  out.result = await client.callTool({
    name: 'invoke_action_with_input', arguments: args.arguments, _meta: { traceparent: args.traceparent },
  });
} finally {
  await client.close();
}
report(out);
