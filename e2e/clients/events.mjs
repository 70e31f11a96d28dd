// Live events: subscribe_events makes an event resource; the client then
// asks for its updates the way its era allows (2026-07-28:
// client.listen({resourceSubscriptions}); legacy: resources/subscribe), waits
// for the first notifications/resources/updated while the test keeps
// pushing events at the fake, reads the resource and ends the subscription.
// Closing a listen keeps the resource, which unsubscribe_events then
// releases; resources/unsubscribe releases it itself. ARGS: {selfId}.
import { connect, negotiated, report, args } from './lib.mjs';

const { client } = await connect();
const out = negotiated(client);
try {
  const sub = await client.callTool({ name: 'subscribe_events', arguments: { self_id: args.selfId } });
  const uri = sub.structuredContent.result.uri;
  out.uri = uri;
  const updated = new Promise((resolve) => {
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      if (n.params.uri === uri) resolve(n.params);
    });
  });
  let listen = null;
  if (client.getProtocolEra() === 'modern') {
    listen = await client.listen({ resourceSubscriptions: [uri] });
    out.honoredFilter = listen.honoredFilter;
  } else {
    await client.subscribeResource({ uri });
  }
  out.update = await updated;
  const read = await client.readResource({ uri }, { cacheMode: 'bypass' });
  out.events = JSON.parse(read.contents[0].text).events.map((e) => e.event.raw_message ?? e.event.post_type);
  if (listen) {
    await listen.close();
    out.closed = await listen.closed;
  } else {
    await client.unsubscribeResource({ uri });
  }
  const listed = await client.listResources({}, { cacheMode: 'bypass' });
  out.listedAfterEnd = listed.resources.some((r) => r.uri === uri);
  if (out.listedAfterEnd) {
    out.released = (await client.callTool({ name: 'unsubscribe_events', arguments: { uri } })).structuredContent.result;
  }
} finally {
  await client.close();
}
report(out);
