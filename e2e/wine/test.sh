#!/usr/bin/env bash
# make test-windows: the Windows build's unit tests and an e2e smoke of the
# Windows binary, under Wine, on a machine that may have neither Wine nor
# a prefix yet. Everything it makes goes under bin/_wine (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
out=$PWD/bin/_wine # "_": the go command does not look inside
mkdir -p "$out"

# Debian's wine (8.0) and the MinGW compiler for the ProcessPrng shim.
missing=()
command -v wine >/dev/null 2>&1 || missing+=(wine wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

export WINEPREFIX=${SNOWLUMA_WINEPREFIX:-$out/prefix}
export WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "test-windows: creating the Wine prefix $WINEPREFIX"
  wine wineboot --init >/dev/null 2>&1
  wineserver -w
fi

# Go >= 1.22 needs ProcessPrng from system32's bcryptprimitives.dll, which
# Wine 8.0 lacks (e2e/wine/processprng.c).
dll=$out/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ e2e/wine/processprng.c -nt "$dll" ] || [ e2e/wine/bcryptprimitives.def -nt "$dll" ]; then
  x86_64-w64-mingw32-gcc -O2 -s -shared -o "$dll" e2e/wine/processprng.c e2e/wine/bcryptprimitives.def -ladvapi32
fi
cp "$dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"

# Wine 8.0 answers FileDispositionInformationEx (what Go's os.RemoveAll
# uses since 1.25 to delete inside a directory) with STATUS_NOT_IMPLEMENTED,
# where a Windows without it answers STATUS_INVALID_INFO_CLASS and Go falls
# back to the older call. Every t.TempDir cleanup would fail on it. The
# unit tests are therefore compiled with an overlay of the one Go file that
# takes NOT_IMPLEMENTED as the same answer. The server itself never removes
# a directory tree, and the e2e smoke runs the binary as built.
at=$($GO env GOROOT)/src/internal/syscall/windows/at_windows.go
sed 's|^\t\tSTATUS_NOT_SUPPORTED: |\t\tSTATUS_NOT_SUPPORTED, NTStatus(0xC0000002): |' "$at" >"$out/at_windows.go"
if cmp -s "$at" "$out/at_windows.go"; then
  echo "test-windows: $at no longer has the line the Wine overlay changes; look at it again" >&2
  exit 1
fi
gofmt -w "$out/at_windows.go" # make lint reads every .go file under the tree
printf '{"Replace":{"%s":"%s"}}\n' "$at" "$out/at_windows.go" >"$out/overlay.json"

# One Wine server for all the runs below, not one per test binary, and
# Wine's own background programs (services.exe, winedevice.exe …) started
# now with no pipe of ours: started by the first test binary, they would
# inherit its stdout and go test would wait for them to close it.
wineserver -p || true
trap 'wineserver -k 2>/dev/null || true' EXIT
wine cmd.exe /c exit </dev/null >/dev/null 2>&1

echo "test-windows: unit tests of every package but e2e, GOOS=windows, under wine"
# cmd/release is left out: it makes releases by running the host's go and git
# (and node for the launcher), none of which the Windows build has under
# Wine; it is a maintainer's tool and its tests run in the host suite.
packages=$(GOOS=windows $GO list ./... | grep -v -e '/e2e' -e '/cmd/release$')
wintest() { GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO test -count=1 -overlay "$out/overlay.json" -exec wine "$@"; }
# Wine now and then fails to start a test binary at all: it exits 1 at
# once and prints nothing, no test ran (seen once in stages/pace, 0.04 s).
# Such a package, and only such a one, is run once more; a package whose
# tests failed or panicked fails the run as it is.
set +e
wintest $packages 2>&1 | tee "$out/unit.log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  unstarted=$(awk '
    /^(ok|FAIL|\?)[ \t]+[a-z]/ { if ($1 == "FAIL" && !verdict) print $2; verdict = 0; next }
    /^--- FAIL|^panic:/ { verdict = 1 }
  ' "$out/unit.log")
  real=$(grep -c -e '^--- FAIL' -e '^panic:' "$out/unit.log" || true)
  if [ "$real" -ne 0 ] || [ -z "$unstarted" ]; then
    exit "$status"
  fi
  echo "test-windows: Wine started no test in $(echo $unstarted); running those once more"
  wintest $unstarted
fi

echo "test-windows: e2e smoke of the Windows binary under wine"
$GO test -count=1 -tags wine -run '^TestWindows' ./e2e
