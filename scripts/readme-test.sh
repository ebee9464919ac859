#!/usr/bin/env bash
# readme-test.sh [REPOSITORY]: run README.md's shell blocks, in order, as written, in a fresh clone.
#
# Which blocks run: every fenced block whose info string is `sh` or `bash`, unless the line just
# before its fence (blank lines aside) is a marker with the reason it cannot run here:
#
#     <!-- readme-test: skip: macOS only (Homebrew) -->
#
# Other fences (```swift, ```yaml, ```json, plain ```) are never run. A skip without a reason fails.
#
# How a block runs: line by line (a line ending in `\` continues on the next), each in the same
# shell, so `export` and `cd` carry to the next line, with the clone as the working directory, a
# HOME of its own (under the temporary folder) and standard input from /dev/null. Each command
# must exit 0, except one whose comment quotes curl's error, `# ... curl: (56) ...`: it must exit
# with that code (the README says that fault ends the transfer so).
#
# Long-running commands (`stubd serve`, `stubd record`, `make run`, `swift run stubd` with no
# other command) are started in the background in a process group of their own, and the run
# waits until http://127.0.0.1:PORT/__stubd/health answers (PORT from --port, else 8080) before
# the next line; they are stopped (SIGTERM, then SIGKILL) when the run ends, however it ends.
#
# Isolation: as root, with unshare(1) and ip(8), the run has a network namespace of its own with only
# loopback in it, so that the README's port 8080 is free whatever else the machine serves (and
# nothing reaches the outside: the Quick Start's dependencies must already be installed, as
# .ci/run installs them). Set README_TEST_NETNS=0 to use the machine's network.
#
#   scripts/readme-test.sh                 # clone this checkout's HEAD (commit first) and run
#   README_TEST_LOCK=/tmp/stubd-swift.lock scripts/readme-test.sh
#                                          # hold that lock around each `make` and `swift` line
#   README_TEST_KEEP=1 ...                 # keep the temporary folder (its path is printed)
set -euo pipefail

log() { printf 'readme-test: %s\n' "$*" >&2; }
die() { printf 'readme-test: FAIL: %s\n' "$*" >&2; exit 1; }

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=${1:-$(cd "$SCRIPT_DIR/.." && pwd)}

if [[ ${README_TEST_NETNS:-1} == 1 && -z ${README_TEST_IN_NETNS:-} && $(id -u) -eq 0 && ${CI:-} == true ]] \
   && ! { command -v unshare >/dev/null && command -v ip >/dev/null; }; then
  die "unshare and ip (util-linux, iproute2) are needed for the README's own network under CI=true"
fi
if [[ ${README_TEST_NETNS:-1} == 1 && -z ${README_TEST_IN_NETNS:-} && $(id -u) -eq 0 ]] && command -v unshare >/dev/null && command -v ip >/dev/null; then
  log "running in a network namespace of its own (loopback only)"
  exec unshare --net env README_TEST_IN_NETNS=1 bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$REPO"
fi

tmp=$(mktemp -d /tmp/readme-test.XXXXXX)
pgids=()
cleanup() {
  local rc=$?
  for g in "${pgids[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
  for g in "${pgids[@]}"; do
    for _ in $(seq 1 100); do kill -0 -- "-$g" 2>/dev/null || break; sleep 0.05; done
    kill -KILL -- "-$g" 2>/dev/null || true
  done
  if [[ ${README_TEST_KEEP:-0} == 1 ]]; then log "kept $tmp"; else rm -rf "$tmp"; fi
  exit $rc
}
trap cleanup EXIT

log "cloning $REPO into $tmp/stubd"
git clone -q "$REPO" "$tmp/stubd"
cd "$tmp/stubd"
log "at $(git log -1 --format='%h %s')"
mkdir -p "$tmp/home"
export HOME=$tmp/home

# The commands, one per record: LINE<TAB>COMMAND, or SKIP<TAB>LINE<TAB>REASON for a skipped block.
plan=$(python3 - README.md <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
out, i = [], 0
while i < len(lines):
    m = re.match(r"^```(\S*)\s*$", lines[i])
    if not m:
        i += 1
        continue
    info, start = m.group(1), i
    j = i + 1
    while j < len(lines) and not lines[j].startswith("```"):
        j += 1
    body = lines[start + 1:j]
    i = j + 1
    if info not in ("sh", "bash"):
        continue
    k = start - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    marker = re.match(r"^<!--\s*readme-test:\s*skip\b:?\s*(.*?)\s*-->\s*$", lines[k]) if k >= 0 else None
    if marker:
        if not marker.group(1):
            sys.exit(f"README.md:{k + 1}: a readme-test skip marker needs a reason")
        out.append(f"SKIP\t{start + 1}\t{marker.group(1)}")
        continue
    command, first = "", None
    for n, text in enumerate(body, start=start + 2):
        if first is None:
            first = n
        if text.endswith("\\"):
            command += text[:-1] + " "
            continue
        command += text
        if command.strip() and not command.strip().startswith("#"):
            out.append(f"{first}\t{command}")
        command, first = "", None
print("\n".join(out))
PY
) || die "could not read README.md's blocks"

background_re='^[[:space:]]*(make run|stubd serve|stubd record|swift run stubd([[:space:]]+serve)?[[:space:]]*(--|#|$)|stubd[[:space:]]*(#|$))'
ran=0 skipped=0 servers=0
while IFS=$'\t' read -r first second third; do
  if [[ $first == SKIP ]]; then
    skipped=$((skipped + 1))
    log "skip: the block at README.md:$second ($third)"
    continue
  fi
  line=$first command=$second
  [[ $command == *$'\t'* ]] && die "README.md:$line: a tab in a command"
  code_part=${command%%#*}
  if [[ $command =~ curl:\ \(([0-9]+)\) ]]; then want=${BASH_REMATCH[1]}; else want=0; fi
  if [[ $code_part =~ $background_re ]]; then
    port=8080
    [[ $code_part =~ --port[=[:space:]]+([0-9]+) ]] && port=${BASH_REMATCH[1]}
    if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/__stubd/health"; then
      die "README.md:$line: something already answers on port $port before \`$command\`"
    fi
    log "README.md:$line: \$ $command   (in the background, until the end)"
    setsid bash -c "$command" </dev/null >"$tmp/server-$line.log" 2>&1 &
    pid=$!
    pgids+=("$pid")
    servers=$((servers + 1))
    # A `make run` compiles first: up to 30 minutes on a cold checkout of a busy machine.
    for ((waited = 0; ; waited++)); do
      curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/__stubd/health" && break
      kill -0 "$pid" 2>/dev/null || { tail -30 "$tmp/server-$line.log" >&2; die "README.md:$line: \`$command\` exited before answering on port $port"; }
      ((waited < 36000)) || { tail -30 "$tmp/server-$line.log" >&2; die "README.md:$line: no answer on port $port within 30 minutes"; }
      sleep 0.05
    done
    log "ok: README.md:$line answers on port $port"
    continue
  fi
  log "README.md:$line: \$ $command"
  locked=()
  [[ -n ${README_TEST_LOCK:-} && $code_part =~ ^[[:space:]]*(make|swift)[[:space:]] ]] && locked=(flock "$README_TEST_LOCK")
  status=0
  if ((${#locked[@]})); then
    "${locked[@]}" bash -c "$command" </dev/null >"$tmp/out" 2>&1 || status=$?
  else
    eval "$command" </dev/null >"$tmp/out" 2>&1 || status=$?
  fi
  if [[ $status != "$want" ]]; then
    tail -40 "$tmp/out" >&2
    die "README.md:$line: \`$command\` exited $status, expected $want"
  fi
  head -c 300 "$tmp/out" | sed 's/^/    /' >&2; echo >&2
  ran=$((ran + 1))
done <<<"$plan"

((ran > 0)) || die "no command ran: are the README's blocks all skipped?"
log "$ran commands and $servers servers from the README ran as written; $skipped blocks skipped (reasons above)"
echo "readme-test: $ran passed, 0 failed"
