// The npm packages as a user meets them: `npx snowluma-mcp`, run in a
// directory where the packed tarballs were installed offline. List the
// tools, make a docs call, then close stdin as the client does and see how
// the whole chain (npx, the launcher, the binary) ends. ARGS: {npx, cwd}.
import { connect, negotiated, report, args } from './lib.mjs';

const { client, transport } = await connect({}, { command: args.npx, args: ['--no', 'snowluma-mcp'], cwd: args.cwd });
// The transport keeps its child private; it is the only way to see the
// exit code, and whether anything but stdin EOF was needed to stop it.
const proc = transport._process;
if (!proc) throw new Error('StdioClientTransport no longer keeps its child in _process');
const ended = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));

const out = negotiated(client);
try {
  out.serverInfo = client.getServerVersion() ?? null;
  const tools = await client.listTools({}, { cacheMode: 'bypass' });
  out.tools = tools.tools.map((t) => t.name);
  out.docs = await client.callTool({ name: 'get_action', arguments: { name: 'get_login_info' } });
} finally {
  proc.stdin.end();
  out.exit = await ended;
  await client.close();
}
report(out);
