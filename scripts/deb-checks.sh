#!/usr/bin/env bash
# deb-checks.sh DEB: run by scripts/deb-test.sh inside a clean debian:bookworm container, as root.
# Installs the .deb with apt as a user would and checks what it ships; every check prints one
# line and the first failure stops the run.
set -euo pipefail
passed=0
ok()  { passed=$((passed + 1)); printf 'deb-test: ok: %s\n' "$*" >&2; }
die() { printf 'deb-test: FAIL: %s\n' "$*" >&2; exit 1; }

[[ $# -eq 1 && -f $1 ]] || die "usage: deb-checks.sh DEB"
! command -v swift >/dev/null || die "swift is installed in the container; the test needs a machine without it"
! ls /usr/lib/swift /usr/share/swift >/dev/null 2>&1 || die "a Swift runtime is in the container"

# The base image leaves out man pages and docs as debian:bookworm-slim does; the full
# debian:bookworm keeps them, as a desktop or server install does.
rm -f /etc/dpkg/dpkg.cfg.d/docker
cp "$1" /tmp/ && cd /tmp
apt-get update -q >/tmp/apt.log 2>&1 || { cat /tmp/apt.log >&2; die "apt-get update (is deb.debian.org reachable?)"; }
apt-get install -y -q "./$(basename "$1")" man-db curl >/tmp/apt.log 2>&1 || { cat /tmp/apt.log >&2; die "apt-get install ./$(basename "$1")"; }
ok "apt-get install ./$(basename "$1") (with man-db and curl)"

version=$(stubd --version) || die "stubd --version failed"
[[ $version == "stubd $(dpkg-query -W -f '${Version}' stubd) (libmicrohttpd "* ]] || die "stubd --version says \"$version\""
ok "stubd --version: $version"
! ldd /usr/bin/stubd | grep -E 'not found|libswift|libFoundation|libicu' || die "the binary needs a library Debian's packages do not give"
ok "ldd names system libraries only: $(ldd /usr/bin/stubd | awk '{print $1}' | grep -v '^/' | tr '\n' ' ')"

[[ $(man -w stubd) == /usr/share/man/man1/stubd.1.gz ]] || die "man -w stubd: $(man -w stubd 2>&1)"
page=$(MANPAGER=cat MANWIDTH=100 man stubd 2>/tmp/man.err) || { cat /tmp/man.err >&2; die "man stubd failed"; }
[[ ! -s /tmp/man.err ]] || { cat /tmp/man.err >&2; die "man stubd printed warnings"; }
for word in import-openapi STUBD_PORT --print-settings; do
  grep -q -- "$word" <<<"$page" || die "man stubd does not mention $word"
done
ok "man stubd renders the page ($(wc -l <<<"$page") lines, every command and setting)"

candidates=$(bash --norc -c 'source /usr/share/bash-completion/completions/stubd
  COMP_WORDS=(stubd serve --); COMP_CWORD=2; _stubd; printf "%s\n" "${COMPREPLY[@]}"')
grep -qx -- --port <<<"$candidates" && grep -qx -- --stubs <<<"$candidates" \
  || die "bash completion of \`stubd serve --<TAB>\` lacks --port or --stubs: $candidates"
ok "bash completion of \`stubd serve --<TAB>\`: $(wc -l <<<"$candidates") candidates, --port among them"
for f in /usr/share/zsh/vendor-completions/_stubd /usr/share/fish/vendor_completions.d/stubd.fish; do
  [[ -s $f ]] || die "$f is missing"
done
head -1 /usr/share/zsh/vendor-completions/_stubd | grep -qx '#compdef stubd' || die "_stubd does not start with #compdef stubd"
ok "zsh and fish completions installed"

stubs=/usr/share/doc/stubd/examples/Stubs
stubd check "$stubs" >/tmp/check.out || { cat /tmp/check.out >&2; die "stubd check $stubs"; }
ok "stubd check $stubs: $(tail -1 /tmp/check.out)"

# The container test's smoke checks, against the installed binary and the shipped examples.
stubd serve --stubs "$stubs" --port 8080 >/tmp/serve.log 2>&1 &
pid=$!
for _ in $(seq 1 400); do
  stubd probe http://127.0.0.1:8080/__stubd/health >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat /tmp/serve.log >&2; die "stubd serve exited"; }
  sleep 0.05
done
stubd probe http://127.0.0.1:8080/__stubd/health >/dev/null || { cat /tmp/serve.log >&2; die "not healthy within 20 s"; }
ok "stubd serve answers /__stubd/health (stubd probe)"
body=$(curl -fsS http://127.0.0.1:8080/api/v1/users/1) && grep -Eq '"id"[[:space:]]*:[[:space:]]*1([^0-9]|$)' <<<"$body" \
  || die "GET /api/v1/users/1: $body"
ok "GET /api/v1/users/1: the fixture"
code=$(curl -s -o /tmp/404.json -w '%{http_code}' http://127.0.0.1:8080/api/v1/users/999)
[[ $code == 404 ]] && grep -q 'Not found' /tmp/404.json || die "GET /api/v1/users/999: $code $(cat /tmp/404.json)"
ok "GET /api/v1/users/999: 404 in the error envelope"
t0=$(date +%s%3N)
curl -fsS -o /dev/null 'http://127.0.0.1:8080/api/v1/users/1?__delay=500' || die "GET ?__delay=500"
(( $(date +%s%3N) - t0 >= 500 )) || die "?__delay=500 answered early"
ok "GET ?__delay=500 waits 500 ms"
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
[[ $status == 0 ]] || die "stubd serve exited $status on SIGTERM"
ok "SIGTERM: exit 0"
echo "deb-test: $passed passed, 0 failed"
