#!/usr/bin/env bash
# install-tree.sh BINARY DESTDIR PREFIX: install a built stubd under DESTDIR/PREFIX: the binary,
# the man page and the bash, zsh and fish completions, the last three printed by the binary
# itself (`stubd manpage`, `stubd completions SHELL`), so they list exactly its commands and
# settings. Used by `make install` (DESTDIR empty) and scripts/make-deb.sh (a staging tree).
#
#   PREFIX/bin/stubd
#   PREFIX/share/man/man1/stubd.1            (stubd.1.gz with GZIP_MAN=1, as Debian wants it)
#   PREFIX/share/bash-completion/completions/stubd
#   PREFIX/share/zsh/vendor-completions/_stubd   (PREFIX=/usr: Debian's place; else site-functions,
#                                                 on zsh's default $fpath under /usr/local and Homebrew)
#   PREFIX/share/fish/vendor_completions.d/stubd.fish
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: install-tree.sh BINARY DESTDIR PREFIX" >&2; exit 2; }
bin=$1 root=$2 prefix=$3
[[ -x $bin ]] || { echo "install-tree: no executable at $bin (build it first)" >&2; exit 1; }
dest=$root$prefix

install -d "$dest/bin" "$dest/share/man/man1" "$dest/share/bash-completion/completions" "$dest/share/fish/vendor_completions.d"
install -m 755 "$bin" "$dest/bin/stubd"

man=$dest/share/man/man1/stubd.1
"$bin" manpage > "$man.tmp"
if [[ ${GZIP_MAN:-0} == 1 ]]; then
  rm -f "$man"
  gzip -9n < "$man.tmp" > "$man.gz"
  rm -f "$man.tmp"
  chmod 644 "$man.gz"
else
  mv "$man.tmp" "$man"
  chmod 644 "$man"
fi

zsh_dir=$dest/share/zsh/site-functions
[[ $prefix == /usr ]] && zsh_dir=$dest/share/zsh/vendor-completions
install -d "$zsh_dir"
"$bin" completions bash > "$dest/share/bash-completion/completions/stubd"
"$bin" completions zsh > "$zsh_dir/_stubd"
"$bin" completions fish > "$dest/share/fish/vendor_completions.d/stubd.fish"
chmod 644 "$dest/share/bash-completion/completions/stubd" "$zsh_dir/_stubd" "$dest/share/fish/vendor_completions.d/stubd.fish"
echo "install-tree: stubd, its man page and completions under $dest" >&2
