#!/usr/bin/env bash
# Installs the system packages stubd builds and tests with, only when something is missing.
# Used by `make run` and `make test`; needs apt (Debian/Ubuntu) and root or sudo. On macOS it only
# checks for the Homebrew packages and says what to install.
set -euo pipefail

if [[ $(uname -s) == Darwin ]]; then
  command -v pkg-config >/dev/null && pkg-config --exists libmicrohttpd gnutls yaml-0.1 hiredis libwslay libnghttp2 && exit 0
  echo "install-deps: missing Homebrew packages; run: brew install libmicrohttpd gnutls libyaml hiredis wslay libnghttp2 pkg-config" >&2
  exit 1
fi

missing=()
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
pkg-config --exists gnutls 2>/dev/null || missing+=(libgnutls28-dev)
pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev)
# The fleet's state store client (serve --state).
pkg-config --exists hiredis 2>/dev/null || missing+=(libhiredis-dev)
# WebSocket framing; Debian's package has no pkg-config file, so the header says.
[[ -f /usr/include/wslay/wslay.h ]] || missing+=(libwslay-dev)
# HTTP/2 on the HTTPS port.
pkg-config --exists libnghttp2 2>/dev/null || missing+=(libnghttp2-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v curl >/dev/null || missing+=(curl)
# The tests read certificates back with GnuTLS's certtool and Python's ssl.
command -v certtool >/dev/null || missing+=(gnutls-bin)
command -v python3 >/dev/null || missing+=(python3)
((${#missing[@]})) || exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
