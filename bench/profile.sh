#!/bin/sh
# A quick CPU profile of stubd's request path: `perf record -g` of stubd for SECONDS (default 5)
# while wrk -t1 -c50 sends keep-alive GETs of PATH (default /api/v1/users/1), then the flat
# `perf report --no-children --sort dso,sym` (top 60 lines). stubd runs like in
# bench/request-path.py case a: --threads 1 --log off --no-watch, journal on, shipped Stubs.
# The goal is to see where stubd's time goes against the floor (bench/floor.c).
#
# usage: bench/profile.sh [--binary PATH] [--seconds 5] [--path /api/v1/users/1] [--keep DIR] [-- STUBD ARGS...]
#   --keep DIR keeps perf.data in DIR, for `perf report -i DIR/perf.data --no-children` with call graphs.
# Needs: perf (apt-get install linux-perf; as root, or kernel.perf_event_paranoid <= 1) and wrk.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
binary="" seconds=5 path=/api/v1/users/1 keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --path) path=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "usage: $0 [--binary PATH] [--seconds 5] [--path /api/v1/users/1] [--keep DIR] [-- STUBD ARGS...]" >&2; exit 2 ;;
    esac
done
command -v perf >/dev/null || { echo "perf is not installed: apt-get install linux-perf" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 1; }
if [ -z "$binary" ]; then
    binary=$(cd "$here" && python3 -c 'import common; print(common.build_release())')
fi

work=$(mktemp -d /tmp/stubd-profile-XXXXXX)
stubd_pid="" wrk_pid=""
cleanup() {
    [ -n "$wrk_pid" ] && kill "$wrk_pid" 2>/dev/null || true
    [ -n "$stubd_pid" ] && kill "$stubd_pid" 2>/dev/null && wait "$stubd_pid" 2>/dev/null || true
    if [ -n "$keep" ]; then mkdir -p "$keep" && mv "$work/perf.data" "$keep/" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$binary" serve --host 127.0.0.1 --port 0 --stubs "$here/../Stubs" --threads 1 --log off --no-watch "$@" >"$work/stubd.out" 2>&1 &
stubd_pid=$!
port=""
for _ in $(seq 1 500); do
    port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/stubd.out" | head -1)
    [ -n "$port" ] && break
    sleep 0.01
done
[ -n "$port" ] || { echo "stubd did not start:" >&2; cat "$work/stubd.out" >&2; exit 1; }

wrk -t1 -c50 -d"$((seconds + 2))s" "http://127.0.0.1:$port$path" >"$work/wrk.out" &
wrk_pid=$!
sleep 1
perf record -g -o "$work/perf.data" -p "$stubd_pid" -- sleep "$seconds" 2>"$work/perf.err" >/dev/null ||
    { echo "perf record failed:" >&2; cat "$work/perf.err" >&2; exit 1; }
wait "$wrk_pid"
wrk_pid=""
grep -E "Requests/sec|requests in" "$work/wrk.out"
# Swift symbols are demangled when swift-demangle is on PATH (it ships with the toolchain).
demangle() { if command -v swift-demangle >/dev/null; then swift-demangle --simplified --compact; else cat; fi; }
perf report -i "$work/perf.data" --stdio --no-children --sort dso,sym -g none 2>/dev/null | grep -v '^$' | demangle | head -60
echo
echo "by shared object:"
perf report -i "$work/perf.data" --stdio --no-children --sort dso -g none 2>/dev/null | grep -v -e '^$' -e '^#' | head -12
