#!/usr/bin/env bash
# The whole suite, and its portable re-run, against libmicrohttpd 1.0.1: the series Homebrew,
# Debian 13 and Alpine ship, built from ../shared/vendor into a private prefix under .build/.
# The binaries carry the prefix as their run path, so the daemons the tests start load 1.0.1 too.
# Without the vendored tarball it says so and skips (exit 0): a clone without ../shared still passes.
# Under CI=true (.ci/run) a missing tarball fails instead: a skip there would pass for a green run.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.0.1
tarball=${STUBD_MHD1_TARBALL:-../shared/vendor/libmicrohttpd-$version.tar.gz}
sha=c5f79e38b8fd948b9a762279f566f618fa92442cb72bf1c60a2114cc5842cd0f
prefix=$PWD/.build/libmicrohttpd-$version
scratch=.build/with-libmicrohttpd-$version

if [[ ! -f $tarball ]]; then
  # A clone with no ../shared at all is a supported layout (make test passes without it); one
  # whose ../shared lacks the tarball is a broken one, which CI may not pass over.
  if [[ ${CI:-} == [Tt][Rr][Uu][Ee] && -d ../shared ]]; then
    echo "test-mhd1: $tarball not found under CI=true, where the run against libmicrohttpd $version may not skip:" \
      ".ci/run expects ../shared/vendor beside the checkout (or STUBD_MHD1_TARBALL)" >&2
    exit 1
  fi
  echo "test-mhd1: NOT RUN: $tarball not found; skipping the run against libmicrohttpd $version (under CI=true with ../shared present this fails)"
  exit 0
fi
echo "$sha  $tarball" | sha256sum -c --quiet - || { echo "test-mhd1: $tarball is not the release it should be" >&2; exit 1; }

if [[ ! -f $prefix/lib/pkgconfig/libmicrohttpd.pc ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  tar xzf "$tarball" -C "$work"
  (cd "$work/libmicrohttpd-$version" &&
    ./configure --prefix="$prefix" --disable-doc --disable-examples --enable-https --disable-static >"$work/configure.log" 2>&1 &&
    make -j2 >"$work/make.log" 2>&1 && make install >>"$work/make.log" 2>&1) ||
    { tail -30 "$work"/*.log >&2; echo "test-mhd1: building libmicrohttpd $version failed" >&2; exit 1; }
fi

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export LD_LIBRARY_PATH=$prefix/lib
# The tests check that every process they start runs on this release.
export STUBD_EXPECT_LIBMICROHTTPD=$version
swift build --build-tests --scratch-path "$scratch" -Xlinker -rpath -Xlinker "$prefix/lib"
scripts/test-suite.sh "$scratch"
