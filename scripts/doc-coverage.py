#!/usr/bin/env python3
"""Every public symbol declared in the project's sources has a doc comment.

Reads the symbol graphs `swift symbolgraph-extract` wrote into the folders given (scripts/docs.sh)
and lists each public symbol of ours without one, with its file and line; exit 1 if any.
Symbols without a source location (inherited, synthesized) are not ours to document.
"""
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(folders):
    total, missing = 0, []
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
            for symbol in json.load(open(path))["symbols"]:
                uri = symbol.get("location", {}).get("uri", "")
                if symbol["accessLevel"] not in ("public", "open") or ROOT not in uri:
                    continue
                total += 1
                if not symbol.get("docComment"):
                    line = symbol["location"]["position"]["line"] + 1
                    missing.append(f"{os.path.relpath(uri.split('file://')[-1], ROOT)}:{line}: "
                                   f"{'.'.join(symbol['pathComponents'])} has no doc comment")
    for line in missing:
        print(line)
    print(f"doc-coverage: {total - len(missing)} of {total} public symbols documented")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
