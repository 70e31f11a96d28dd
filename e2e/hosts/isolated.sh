#!/usr/bin/env bash
# isolated.sh TEST-BINARY ARGS...: runs the host suite's test binary in
# e2e/hosts inside a network namespace of its own with only loopback up
# (unshare --net, root), so that no host can reach anything but 127.0.0.1
# whatever it ignores (a proxy setting, a telemetry switch); the suite's
# refusing proxy then names the attempts made through the proxy, and the
# namespace stops every other one. SNOWLUMA_HOSTS_ISOLATED=1 tells the
# suite to verify it sees no interface but loopback.
#
# SNOWLUMA_HOSTS_NO_NETNS=1 runs it with the refusing proxy alone, which
# records what honours the proxy but cannot stop a connection that ignores
# it; so does a machine where no namespace can be made.
set -euo pipefail
test_bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
cd "$(dirname "$0")"
if [ "${SNOWLUMA_HOSTS_NO_NETNS:-}" = 1 ]; then
  echo "test-hosts: SNOWLUMA_HOSTS_NO_NETNS=1: no network namespace; only the refusing proxy guards egress" >&2
  exec "$test_bin" "$@"
fi
# Where no namespace can be made (not root, no unshare or ip, a container
# without CAP_SYS_ADMIN), the suite still runs, with the refusing proxy as
# its only guard, and says so: a red CI for want of a kernel feature would
# hold back every change while proving nothing about the server.
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || ! command -v ip >/dev/null \
  || ! unshare --net true 2>/dev/null; then
  echo "test-hosts: no network namespace can be made here (needs root, unshare and ip, and CAP_SYS_ADMIN);" >&2
  echo "  running with the refusing proxy alone, which records what honours the proxy but cannot stop a connection that ignores it" >&2
  exec "$test_bin" "$@"
fi
export SNOWLUMA_HOSTS_ISOLATED=1
exec unshare --net -- sh -c 'ip link set lo up && exec "$@"' sh "$test_bin" "$@"
