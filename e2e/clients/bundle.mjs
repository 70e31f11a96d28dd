// An MCP Bundle as Claude Desktop runs it, with the code it uses for that
// (@anthropic-ai/mcpb, which the mcpb README names as "the code used by
// Claude for macOS and Windows to load and verify MCPB bundles"): unpack
// the .mcpb, merge the user's answers over the manifest's defaults and
// substitute them into mcp_config, then start the resulting command with
// the resulting environment (on top of the host's own, here only HOME)
// and use it: list the tools, read the runtime report and run one action.
// ARGS: {bundle, dir, userConfig}.
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { getMcpConfigForManifest, unpackExtension } from '@anthropic-ai/mcpb';
import { connect, negotiated, report, args } from './lib.mjs';

if (!(await unpackExtension({ mcpbPath: args.bundle, outputDir: args.dir, silent: true }))) {
  throw new Error(`mcpb could not unpack ${args.bundle}`);
}
const manifest = JSON.parse(readFileSync(join(args.dir, 'manifest.json'), 'utf8'));
const config = await getMcpConfigForManifest({
  manifest, extensionPath: args.dir, systemDirs: { HOME: process.env.HOME }, userConfig: args.userConfig, pathSeparator: sep,
});
if (!config) throw new Error('the host would not start the bundle (a required setting missing?)');

const { client } = await connect({}, {
  command: config.command, args: config.args, env: { HOME: process.env.HOME, ...config.env },
});
const out = negotiated(client);
// What the host passes, without the token's value (the report must not
// carry a secret): whether it is the one the user gave.
const env = { ...config.env };
out.tokenPassed = env.SNOWLUMA_MCP_TOKEN === args.userConfig.token;
delete env.SNOWLUMA_MCP_TOKEN;
out.command = config.command;
out.env = env;
out.manifestTools = manifest.tools;
try {
  out.serverInfo = client.getServerVersion() ?? null;
  out.tools = (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((t) => t.name);
  out.runtime = await client.callTool({ name: 'get_runtime_info', arguments: {} });
  out.query = await client.callTool({ name: 'query_action', arguments: { action: 'get_login_info' } });
} finally {
  await client.close();
}
report(out);
