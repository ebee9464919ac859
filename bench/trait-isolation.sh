#!/usr/bin/env bash
# The `.stubServer` trait's goal (issue 58): twenty tests of one suite, run in parallel by Swift
# Testing, each overriding the same route with its own variant and reading its own journal, on one
# in-process server, pass RUNS times in a row (default 100).
# Usage: bench/trait-isolation.sh [RUNS]   (builds Examples' tests into .build/make-test first)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
scratch=(--scratch-path .build/make-test)
flock /tmp/stubd-swift.lock swift build --package-path Examples --build-tests "${scratch[@]}" -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc "$(getconf _NPROCESSORS_ONLN)" >/dev/null || exit 1

failed=0
start=$(date +%s%N)
for ((i = 1; i <= runs; i++)); do
  out=$(swift test --package-path Examples "${scratch[@]}" --skip-build --filter SessionIsolationTests 2>&1)
  if ! grep -q "Test run with 20 tests in 1 suite passed" <<<"$out"; then
    failed=$((failed + 1))
    echo "run $i failed:"; grep -E "✘|error" <<<"$out" | head -20
  fi
done
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "trait-isolation: $runs runs of 20 parallel tests: $((runs - failed)) passed, $failed failed ($((ms / runs)) ms a run, process start included)"
[[ $failed -eq 0 ]]
