#!/usr/bin/env bash
# `make docs`: API documentation for the StubdClient, StubServer and StubTesting products, built
# with the toolchain's docc from their symbol graphs into .build/docs/<Module>.doccarchive.
# Fails on any DocC warning (--warnings-as-errors) and on a public symbol without a doc comment
# (scripts/doc-coverage.py).
# Usage: scripts/docs.sh   (STUBD_DOCS_OUT=DIR to write elsewhere)
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(StubdClient StubServer StubTesting)
scratch=.build/make-test
out=${STUBD_DOCS_OUT:-.build/docs}
graphs=$out/symbol-graphs
triple=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')

# The same flags as `make test`, so an up-to-date test build is reused.
swift build --scratch-path "$scratch" -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc "$(getconf _NPROCESSORS_ONLN)" \
  --target StubTesting >/dev/null

rm -rf "$graphs" && mkdir -p "$graphs"
includes=()
for dir in Sources/C*/; do includes+=(-I "$dir"); done
for module in "${modules[@]}"; do
  mkdir -p "$graphs/$module"
  swift symbolgraph-extract -module-name "$module" -target "$triple" -I "$scratch/debug/Modules" "${includes[@]}" \
    -minimum-access-level public -skip-synthesized-members -output-dir "$graphs/$module"
done

python3 scripts/doc-coverage.py "$graphs"/*/

status=0
for module in "${modules[@]}"; do
  rm -rf "$out/$module.doccarchive"
  # Extensions of other modules' types (StubTesting@StubdClient) come with the module's own graph.
  if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs/$module" \
       --fallback-display-name "$module" --fallback-bundle-identifier "org.stubd.$module" \
       --output-path "$out/$module.doccarchive" --warnings-as-errors 2>&1 | sed "s/^/[$module] /"; then
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "docs: ${modules[*]} built into $out with no warning" || { echo "docs: FAILED (warnings above)" >&2; exit 1; }
