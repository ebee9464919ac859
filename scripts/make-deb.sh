#!/usr/bin/env bash
# make-deb.sh BINARY: build stubd_VERSION_ARCH.deb in .build/deb/ from a release binary built with
# the Swift runtime linked in (`make deb` builds it: swift build -c release --static-swift-stdlib).
# The version is what `stubd --version` says; Depends is what dpkg-shlibdeps finds the binary
# needs (libc6, libmicrohttpd12, libgnutls30, ...), so it follows the libraries the binary links.
# Prints the .deb's path, size and Depends line. Needs dpkg-dev (dpkg-shlibdeps) and the -dev
# packages the build used, whose libraries dpkg-shlibdeps looks up.
set -euo pipefail
cd "$(dirname "$0")/.."

[[ $# -eq 1 ]] || { echo "usage: make-deb.sh BINARY" >&2; exit 2; }
bin=$1
command -v dpkg-shlibdeps >/dev/null || { echo "make-deb: dpkg-shlibdeps is missing: apt-get install dpkg-dev" >&2; exit 1; }
version=$("$bin" --version | awk '{print $2}')
[[ $version =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] || { echo "make-deb: \`$bin --version\` gave no version: $version" >&2; exit 1; }
arch=$(dpkg --print-architecture)
out=$PWD/.build/deb
stage=$out/stubd_${version}_${arch}
rm -rf "$stage" "$out/work"
mkdir -p "$stage/DEBIAN" "$out/work/debian"

# Reproducible: the man page's date and the files' times come from the last commit.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
GZIP_MAN=1 scripts/install-tree.sh "$bin" "$stage" /usr
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/stubd"

doc=$stage/usr/share/doc/stubd
install -d "$doc/examples"
cp -R Stubs "$doc/examples/Stubs"
find "$doc/examples" -type d -exec chmod 755 {} + && find "$doc/examples" -type f -exec chmod 644 {} +
cat > "$doc/copyright" <<'COPY'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: stubd
Comment: stubd's source declares no licence yet; this file will name it once it does.
COPY
chmod 644 "$doc/copyright"

# dpkg-shlibdeps reads debian/control for the package's name; it runs from a folder holding one.
cat > "$out/work/debian/control" <<'CTRL'
Source: stubd

Package: stubd
Architecture: any
CTRL
depends=$(cd "$out/work" && dpkg-shlibdeps -O -e"$stage/usr/bin/stubd" 2>"$out/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') \
  || { cat "$out/shlibdeps.log" >&2; exit 1; }
[[ -n $depends ]] || { cat "$out/shlibdeps.log" >&2; echo "make-deb: dpkg-shlibdeps found no dependency" >&2; exit 1; }

cat > "$stage/DEBIAN/control" <<CTRL
Package: stubd
Version: $version
Architecture: $arch
Maintainer: stubd maintainers <stubd@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Section: devel
Priority: optional
Description: stub HTTP server for testing API clients
 stubd serves JSON stub directories over a real HTTP socket, so that an API
 client's headers, status handling, decoding, timeouts, retries and
 cancellation are tested too: variants, delays, faults and sequences per
 request, an admin API, a dashboard, HTTPS from a local authority, imports
 from HAR, Postman, Pact and OpenAPI, and recording.
 .
 Example stubs are in /usr/share/doc/stubd/examples/Stubs.
CTRL
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb=.build/deb/stubd_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "make-deb: $deb"
echo "make-deb: $(stat -c %s "$deb") bytes ($(awk -v b="$(stat -c %s "$deb")" 'BEGIN { printf "%.1f MB", b / 1048576 }')), installed $(du -sk --exclude=DEBIAN "$stage" | cut -f1) KiB"
echo "make-deb: Depends: $depends"
