#!/usr/bin/env node
// The snowluma-mcp command of the npm package. npm installed, as an
// optional dependency limited by os and cpu, the one platform package that
// fits this machine; this finds its binary and runs it with this process's
// stdin, stdout and stderr, so that the MCP host speaks to the binary
// directly. Signals sent here go on to the binary, and its exit code (or
// the signal that ended it) comes back. What a host can rely on everywhere
// is that the binary exits when its stdin closes: npm (under npx) does not
// pass SIGTERM or SIGINT on to this launcher.
//
// On Windows there are no signals to pass: Node turns child.kill('SIGINT')
// and child.kill('SIGTERM') into TerminateProcess (no clean stop, so an
// unfinished task is not saved cleanly) and throws ENOSYS for SIGHUP and
// SIGBREAK. There the launcher pipes stdin to the binary instead, and a
// signal closes that pipe and waits: the binary stops as at the end of its
// input. Since the launcher holds the pipe, the binary gets end of input
// even when the launcher itself is killed. Plain node with no dependencies,
// so it runs wherever npx does. Written by cmd/release (make dist).
'use strict';

const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const path = require('node:path');

const scope = '@snowluma-mcp/';
const here = `${process.platform}-${process.arch}`;
const wanted = scope + here;
// The platforms of this release are the optional dependencies.
const offered = Object.keys(require('../package.json').optionalDependencies || {})
  .filter((name) => name.startsWith(scope))
  .map((name) => name.slice(scope.length));

const otherWays = [
  'Other ways to install snowluma-mcp: the release archive for your platform from',
  'https://github.com/snowluma/snowluma-mcp/releases, or with Go 1.26.8 or later:',
  '  go install github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp@latest',
];

function fail(lines) {
  process.stderr.write(`snowluma-mcp: ${lines.join('\n')}\n`);
  process.exit(1);
}

if (!offered.includes(here)) {
  fail([`there is no build for this platform (${here}).`, `Builds exist for: ${offered.join(', ')}.`, ...otherWays]);
}
let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${wanted}/package.json`)), 'bin',
    process.platform === 'win32' ? 'snowluma-mcp.exe' : 'snowluma-mcp');
} catch {
  fail([
    `the package ${wanted}, which holds the binary for this platform, is not installed.`,
    'npm installs it with snowluma-mcp as an optional dependency; it is missing when optional',
    'dependencies were left out (--omit=optional, --no-optional) or the lockfile came from another',
    'platform. Reinstall snowluma-mcp without leaving them out.',
    ...otherWays,
  ]);
}

const windows = process.platform === 'win32';
const child = spawn(binary, process.argv.slice(2), {
  stdio: [windows ? 'pipe' : 'inherit', 'inherit', 'inherit'],
  windowsHide: true,
});
const passed = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'].filter((s) => s in constants.signals);
if (windows) {
  // The binary may exit before its input ends; a write to the closed pipe
  // is then nothing to report.
  child.stdin.on('error', () => {});
  process.stdin.pipe(child.stdin);
  const endInput = () => {
    process.stdin.unpipe(child.stdin);
    child.stdin.end();
  };
  for (const s of passed) process.on(s, endInput);
} else {
  for (const s of passed) process.on(s, () => child.kill(s));
}

child.on('error', (err) => fail([`cannot run ${binary}: ${err.message}`]));
child.on('exit', (code, signal) => {
  if (signal === null) process.exit(code);
  // Die of the same signal, as a shell would report it; should it not be
  // fatal here, exit with the shell's code for it.
  for (const s of passed) process.removeAllListeners(s);
  process.kill(process.pid, signal);
  setTimeout(() => process.exit(128 + (constants.signals[signal] || 0)), 1000);
});
