// The everyday round trip: list tools, call a docs tool, a read tool and a
// write tool, then the resources, the per-action template and an unknown
// action's error. ARGS: {traceRead, traceWrite, groupId, message}.
import { connect, negotiated, errorOf, report, args } from './lib.mjs';

const { client } = await connect();
const out = negotiated(client);
try {
  const tools = await client.listTools({}, { cacheMode: 'bypass' });
  out.tools = { names: tools.tools.map((t) => t.name), ttlMs: tools.ttlMs ?? null, cacheScope: tools.cacheScope ?? null };

  out.docs = await client.callTool({ name: 'get_action', arguments: { name: 'send_group_msg' } });
  out.read = await client.callTool({ name: 'query_action', arguments: { action: 'get_login_info' }, _meta: { traceparent: args.traceRead } });
  out.write = await client.callTool({
    name: 'invoke_action', arguments: { action: 'send_group_msg', params: { group_id: args.groupId, message: args.message } },
    _meta: { traceparent: args.traceWrite },
  });

  const resources = await client.listResources({}, { cacheMode: 'bypass' });
  out.resources = resources.resources.map((r) => r.uri);
  const templates = await client.listResourceTemplates({}, { cacheMode: 'bypass' });
  out.templates = templates.resourceTemplates.map((t) => t.uriTemplate);
  const catalog = await client.readResource({ uri: 'snowluma://onebot/actions' }, { cacheMode: 'bypass' });
  out.catalog = { uri: catalog.contents[0].uri, mimeType: catalog.contents[0].mimeType, bytes: catalog.contents[0].text.length };
  const one = await client.readResource({ uri: 'snowluma://onebot/actions/send_group_msg' }, { cacheMode: 'bypass' });
  out.action = { uri: one.contents[0].uri, mimeType: one.contents[0].mimeType, name: JSON.parse(one.contents[0].text).name };
  try {
    await client.readResource({ uri: 'snowluma://onebot/actions/no_such_action' }, { cacheMode: 'bypass' });
    out.unknown = null;
  } catch (e) {
    out.unknown = errorOf(e);
  }
} finally {
  await client.close();
}
report(out);
