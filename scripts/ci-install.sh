#!/usr/bin/env bash
# What the test suite needs on Debian 12 (or a Debian-based Swift image), from Debian's packages
# and PyPI: used by .ci/run and by the Linux job of .github/workflows/ci.yml, so both install the
# same. `--pip` installs only the Python tools (the macOS job, whose libraries come from Homebrew).
# Run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
# Every install must succeed: a missing tool would only fail its suites later (CI=true), after
# the build, so a failed install stops the run at once and says which.
install() {
  "$@" || { echo "ci: FAILED ($?): $*; the tests that need it cannot run, so the run stops here" >&2; exit 1; }
}

if [[ ${1:-} != --pip ]]; then
install apt-get update -q
# Build and test: libmicrohttpd-dev, libgnutls28-dev, libyaml-dev (OpenAPI documents in YAML), libhiredis-dev (the fleet's store), libwslay-dev (WebSocket framing), libnghttp2-dev (HTTP/2),
# pkg-config, curl; the HTTPS tests read certificates back with certtool (gnutls-bin) and python3, and python3-pip installs the Python
# clients below. Container test: podman and friends.
install apt-get install -y -q make gcc libc6-dev libmicrohttpd-dev libgnutls28-dev libyaml-dev libhiredis-dev libwslay-dev libnghttp2-dev pkg-config curl gnutls-bin python3 python3-pip podman runc debootstrap catatonit
# HTTP/2's clients nobody here wrote: nghttp and h2load (HTTP2ServingTests, bench/http2.py).
install apt-get install -y -q nghttp2-client
# scripts/readme-test.sh: a fresh clone (git) in a network namespace of its own (ip, from iproute2).
install apt-get install -y -q git iproute2
# The shell completions and the man page (ShellIntegrationTests: zsh, fish, groff), the Debian
# package (scripts/deb-test.sh: dpkg-deb, dpkg-shlibdeps) and the Homebrew formula's syntax check (ruby -c).
install apt-get install -y -q zsh fish groff-base dpkg-dev ruby
# The fleet suites: a real store and a real load balancer.
install apt-get install -y -q redis-server haproxy
# The dashboard's browser suite: headless Chromium driven by Selenium (PyPI below).
install apt-get install -y -q chromium chromium-driver
# And in Firefox, over its own WebDriver BiDi (Python's websockets below).
install apt-get install -y -q firefox-esr

fi

# The Python clients and oracles (PyPI). A Debian python3 refuses pip installs into its own
# site-packages (PEP 668); this machine exists for the run, so they go there anyway.
export PIP_BREAK_SYSTEM_PACKAGES=1
pip_install=(python3 -m pip install -q --disable-pip-version-check)
# A real GraphQL client (GraphQLClientTests); it brings graphql-core, the validator's oracle.
install "${pip_install[@]}" 'gql[requests]>=3.5,<5'
# Drives Chromium for DashboardBrowserTests and AdminGuardBrowserTests.
install "${pip_install[@]}" 'selenium>=4.20,<5'
# The WebSocket suites' strict client; DashboardFirefoxTests speaks BiDi through it.
install "${pip_install[@]}" 'websockets>=12,<18'
# HTTP/2 from Python: httpx's client over the h2 library (HTTP2ServingTests), and h2 alone for exact frames.
install "${pip_install[@]}" 'httpx[http2]>=0.27,<1'
# WebSocketTests' second client.
install "${pip_install[@]}" 'wsproto>=1.2,<2'
# DeployTests' manifest check; it brings PyYAML, which reads the compose file.
install "${pip_install[@]}" 'kubernetes-validate>=1.28,<2'
# PactTests' verifier.
install "${pip_install[@]}" 'pact-python>=3,<5'
# make conformance's body pass: every body the imported stubs serve, validated against the
# document's response schema (bench/openapi_bodies.py); under CI=true its absence fails the run.
install "${pip_install[@]}" 'openapi-schema-validator>=0.6,<0.10'

