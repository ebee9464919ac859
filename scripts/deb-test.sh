#!/usr/bin/env bash
# deb-test.sh [DEB]: install stubd's Debian package with `apt-get install ./stubd_*.deb` in a clean
# debian:bookworm container, with no Swift in it, and use it as a user would (scripts/deb-checks.sh,
# run inside): stubd --version, man stubd, bash completion of `stubd serve --<TAB>`, the zsh and
# fish scripts in place, and the smoke checks of the container test on the shipped examples.
#
#   make deb && scripts/deb-test.sh          # the newest .build/deb/stubd_*.deb
#   scripts/deb-test.sh path/to/stubd_0.1.0_amd64.deb
#
# The container is localhost/debian:bookworm, debootstrapped by scripts/podman-base.sh as the
# container test does (no registry); apt inside it fetches the package's Depends from
# deb.debian.org (DEBIAN_MIRROR), so it needs the network. Needs root (rootful podman).
# Environment: STUBD_PODMAN_DIR, DEBIAN_MIRROR as for scripts/container-test.sh.
set -euo pipefail

log()  { printf 'deb-test: %s\n' "$*" >&2; }
die()  { printf 'deb-test: FAIL: %s\n' "$*" >&2; exit 1; }
now_ms() { date +%s%3N; }

[[ $(id -u) -eq 0 ]] || die "must run as root (rootful podman)"
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
W=${STUBD_PODMAN_DIR:-/var/tmp/stubd-podman}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
BASE_IMAGE=localhost/debian:bookworm

if [[ $# -ge 1 ]]; then
  deb=$(readlink -f "$1")
else
  deb=$(ls -t "$REPO"/.build/deb/stubd_*.deb 2>/dev/null | head -1 || true)
  [[ -n $deb ]] || die "no .build/deb/stubd_*.deb: run make deb first, or name the .deb"
fi
[[ -f $deb ]] || die "no such file: $deb"
log "$(basename "$deb"): $(stat -c %s "$deb") bytes; Depends: $(dpkg-deb -f "$deb" Depends)"

# shellcheck source=podman-base.sh
source "$SCRIPT_DIR/podman-base.sh"
podman_prepare
ensure_base_image

name=stubd-deb-test-$$
trap 'podman rm -f -t 0 "$name" >/dev/null 2>&1 || true' EXIT
t0=$(now_ms)
# The .deb and the checks are mounted read-only; the checks copy the .deb before apt reads it.
podman run --rm --pull=never --name "$name" \
  -v "$deb:/mnt/$(basename "$deb"):ro" -v "$SCRIPT_DIR/deb-checks.sh:/mnt/deb-checks.sh:ro" \
  -e DEBIAN_FRONTEND=noninteractive "$BASE_IMAGE" bash /mnt/deb-checks.sh "/mnt/$(basename "$deb")" \
  || die "the checks in the container failed (above)"
log "done in $(( ($(now_ms) - t0) / 1000 )) s"
