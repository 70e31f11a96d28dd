#!/usr/bin/env bash
# isolated.sh TEST-BINARY ARGS...: runs the host suite's test binary in
# e2e/hosts inside a network namespace of its own with only loopback up
# (unshare --net, root), so that no host can reach anything but 127.0.0.1
# whatever it ignores (a proxy setting, a telemetry switch); the suite's
# refusing proxy then names the attempts made through the proxy, and the
# namespace stops every other one. SNOWLUMA_HOSTS_ISOLATED=1 tells the
# suite to verify it sees no interface but loopback.
#
# Without root (a developer's machine), SNOWLUMA_HOSTS_NO_NETNS=1 runs it
# with the refusing proxy alone, which records what honours the proxy but
# cannot stop a connection that ignores it.
set -euo pipefail
test_bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
cd "$(dirname "$0")"
if [ "${SNOWLUMA_HOSTS_NO_NETNS:-}" = 1 ]; then
  echo "test-hosts: SNOWLUMA_HOSTS_NO_NETNS=1: no network namespace; only the refusing proxy guards egress" >&2
  exec "$test_bin" "$@"
fi
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || ! command -v ip >/dev/null; then
  echo "test-hosts: needs root, unshare (util-linux) and ip (iproute2) to run the hosts without a network;" >&2
  echo "  set SNOWLUMA_HOSTS_NO_NETNS=1 to run with the refusing proxy alone" >&2
  exit 1
fi
if ! unshare --net true 2>/dev/null; then
  echo "test-hosts: cannot create a network namespace here (a container without CAP_SYS_ADMIN?);" >&2
  echo "  set SNOWLUMA_HOSTS_NO_NETNS=1 to run with the refusing proxy alone" >&2
  exit 1
fi
export SNOWLUMA_HOSTS_ISOLATED=1
exec unshare --net -- sh -c 'ip link set lo up && exec "$@"' sh "$test_bin" "$@"
