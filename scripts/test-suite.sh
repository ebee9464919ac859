#!/usr/bin/env bash
# Runs the built test suite and its portable re-run in three lanes at once, each lane one test at a
# time (many tests measure delays and deadlines; Swift Testing's in-process parallelism shares two
# cooperative threads between every suite and stretches them by seconds).
# Why lanes: a serial run keeps this 2-core machine about a quarter busy (tests wait on delays,
# timeouts, Chromium, Firefox, Redis and HAProxy), so three processes share it: 246 s of serial
# runs take about 100 s. Each line is prefixed with its lane; the exit status fails if any lane does.
# Usage: scripts/test-suite.sh [scratch-path]   (the build must be done: swift build --build-tests)
set -uo pipefail
cd "$(dirname "$0")/.."

scratch=()
[[ $# -gt 0 ]] && scratch=(--scratch-path "$1")

# Lane b: suites that mostly wait on browsers, Redis, HAProxy or child processes.
waiting='\.(DashboardBrowserTests|DashboardFirefoxTests|AdminGuardBrowserTests|HostileStoreTests|FleetDaemonTests|RobustnessTests|FleetTests|SettingsTableTests)/'
# Lane p: the portable re-run, then these.
rest='\.(ReadmeTests|PactTests|CLITests|SpecHardeningTests|FleetClearTests|FleetThreadTests|HARWebSocketImportTests|ProxyLimitsTests|ProxyWireTests|ProxyTests)/'
# The suites re-run with STUBD_PORTABLE=1: poll instead of epoll, the scanning watcher.
portable='ServingTests|DelayTests|FaultTests|ThrottleTests|ReloadTests|LinkLoopTests|SlowClientTests|FramingTests|HeadSizeTests|StreamTests|HoldTests|ClientGoneTests|WebSocketTests'

# swift test takes a lock on the scratch path even with --skip-build; two runs reading the same
# finished build do not need it.
run() {
  local lane=$1; shift
  swift test --skip-build --ignore-lock "${scratch[@]}" --no-parallel "$@" 2>&1 | sed -u "s/^/[$lane] /"
}

run b --filter "$waiting" &
lane_b=$!
( STUBD_PORTABLE=1 run p --filter "$portable"; first=$?; run p --filter "$rest" && exit $first ) &
lane_p=$!

status=0
run a --skip "$waiting" --skip "$rest" || status=1
wait "$lane_b" || status=1
wait "$lane_p" || status=1
[[ $status -eq 0 ]] && echo "test-suite: every lane passed" || echo "test-suite: a lane failed (lines prefixed [a], [b] or [p])" >&2
exit $status
