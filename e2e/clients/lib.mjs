// What every interop script shares: the inputs the Go test passes in the
// environment, a v2 SDK client connected to the snowluma-mcp binary in the
// requested negotiation mode, and the one JSON report printed on stdout.
//
// Environment (set by e2e/interop_harness_test.go):
//   INTEROP_BINARY      the snowluma-mcp binary
//   INTEROP_SERVER_ENV  JSON object: the binary's whole environment
//   INTEROP_ERA         legacy | auto | modern (modern pins 2026-07-28)
//   INTEROP_ARGS        JSON object: the case's own inputs
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

// A safety bound for a hung binary, never an assertion about speed.
setTimeout(() => { console.error('interop: safety bound reached'); process.exit(3); }, 90_000).unref();

export const era = process.env.INTEROP_ERA;
export const args = JSON.parse(process.env.INTEROP_ARGS || '{}');
// Everything the client reported through onerror (it reports problems it
// does not throw for there, such as a dropped message).
export const clientErrors = [];

// The three ways client 2.4.0 negotiates: legacy sends initialize; auto and
// a pin probe with server/discover (in a short-lived sibling process) first.
const negotiation = { legacy: { mode: 'legacy' }, auto: { mode: 'auto' }, modern: { mode: { pin: '2026-07-28' } } };

// connect starts the binary under a new client with the given capabilities
// and returns the client and its transport. server replaces the command
// that starts it (command, args, cwd, and env in place of
// INTEROP_SERVER_ENV), for a case that starts it another way, such as
// through npx or from a bundle's manifest.
export async function connect(capabilities = {}, server = { command: process.env.INTEROP_BINARY, args: [] }) {
  if (!negotiation[era]) throw new Error(`INTEROP_ERA must be legacy, auto or modern, not ${era}`);
  const client = new Client({ name: 'snowluma-interop', version: '1.0.0' }, { capabilities, versionNegotiation: negotiation[era] });
  client.onerror = (e) => {
    clientErrors.push(String(e?.message ?? e));
    console.error('interop client error:', e?.message ?? e);
  };
  const transport = new StdioClientTransport({
    command: server.command, args: server.args, cwd: server.cwd, env: server.env ?? JSON.parse(process.env.INTEROP_SERVER_ENV), stderr: 'inherit',
  });
  await client.connect(transport);
  return { client, transport };
}

// negotiated is what the client says it negotiated.
export function negotiated(client) {
  return { era: client.getProtocolEra(), protocolVersion: client.getNegotiatedProtocolVersion() };
}

// errorOf reduces a thrown error to what a test can assert on.
export function errorOf(e) {
  return { name: e?.name ?? null, code: e?.code ?? null, message: String(e?.message ?? e), data: e?.data ?? null };
}

// report prints the script's one JSON report.
export function report(out) {
  process.stdout.write(JSON.stringify(out) + '\n');
}

// nextLine resolves with the next line the Go test writes to stdin: the
// test's way of saying "now" (for example once the fake has the request).
export function nextLine() {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (chunk) => {
      buf += chunk;
      const i = buf.indexOf('\n');
      if (i < 0) return;
      process.stdin.off('data', onData);
      process.stdin.pause();
      resolve(buf.slice(0, i));
    };
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', onData);
    process.stdin.once('end', () => reject(new Error('stdin closed before the test said go')));
  });
}
