#!/usr/bin/env python3
"""How `stubd import-har`, `import-postman` and `import-pact` scale with the examples of one route.

Each format gets a synthetic file with N examples of ONE route (`GET /v1/items?page=I`, a
different JSON body each), for N = 2,500, 5,000, 10,000 and 20,000:
- HAR 1.2: N entries, no labels (variants `200`, `200-2` …);
- Postman collection v2.1: one request with N saved examples, each named `Page I`;
- Pact v3: N interactions under one provider state (`items exist`), as a contract's
  interactions often share one (so every variant takes that label and a number);
- har-tokens (only when asked for with --formats): the HAR with its own bearer token on each
  request, as a capture with a rotating token or a request signature has, which the import
  scrubs from every body and header it writes.

The release `stubd` imports each file into a fresh stub folder (best of --runs). Printed:
seconds per N and t(N)/t(N/2), the ratio against the half-size run of the same format in the
same run: about 2 for an import linear in N, about 4 for one that grows with its square. The
import's report must say one route and N variants, or the script stops. With --reference, an
other build (the one before a change) imports the same files in the same run, and the table
adds its seconds and reference/binary.

The files go to /dev/shm when there is one (else the system's temporary folder; --dir to choose):
on ext4, creating thousands of files soon after deleting the previous size's tree costs the file
system a search for inodes that grows with what was deleted, which is not the import's time.

usage: bench/import-scale.py [--binary PATH] [--reference PATH] [--sizes 2500,5000,10000,20000]
                             [--runs 1] [--formats har,postman,pact] [--dir DIR] [--keep DIR]
--keep DIR writes each format's files and stub trees under DIR and keeps them (to compare two
builds' output with `diff -r`).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_release  # noqa: E402

HOST = "api.bench.example"


def body(i):
    return json.dumps({"page": i, "items": [{"id": i * 10 + k, "name": f"item {i}-{k}"} for k in range(3)]})


def har(n):
    entries = []
    for i in range(1, n + 1):
        entries.append({
            "startedDateTime": "2026-01-01T12:00:00.000Z", "time": 12,
            "request": {"method": "GET", "url": f"https://{HOST}/v1/items?page={i}", "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "Accept", "value": "application/json"}], "queryString": [], "cookies": [],
                        "headersSize": -1, "bodySize": 0},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                         "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
                         "content": {"size": 0, "mimeType": "application/json", "text": body(i)},
                         "redirectURL": "", "headersSize": -1, "bodySize": -1},
            "cache": {}, "timings": {"send": 0, "wait": 12, "receive": 0},
        })
    return {"log": {"version": "1.2", "creator": {"name": "import-scale", "version": "1"}, "entries": entries}}


def har_tokens(n):
    capture = har(n)
    for i, entry in enumerate(capture["log"]["entries"]):
        entry["request"]["headers"].append({"name": "Authorization", "value": f"Bearer tok{i:08d}{'ab' * 12}"})
    return capture


def postman(n):
    def request(i):
        return {"method": "GET", "header": [{"key": "Accept", "value": "application/json"}],
                "url": {"raw": f"https://{HOST}/v1/items?page={i}", "protocol": "https", "host": HOST.split("."),
                        "path": ["v1", "items"], "query": [{"key": "page", "value": str(i)}]}}
    examples = [{"name": f"Page {i}", "originalRequest": request(i), "status": "OK", "code": 200,
                 "_postman_previewlanguage": "json", "header": [{"key": "Content-Type", "value": "application/json"}],
                 "body": body(i)} for i in range(1, n + 1)]
    return {"info": {"name": "Import scale", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
            "item": [{"name": "List items", "request": request(1), "response": examples}]}


def pact(n):
    interactions = [{"description": f"a request for page {i}", "providerStates": [{"name": "items exist"}],
                     "request": {"method": "GET", "path": "/v1/items", "query": {"page": [str(i)]},
                                 "headers": {"Accept": "application/json"}},
                     "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": json.loads(body(i))}}
                    for i in range(1, n + 1)]
    return {"consumer": {"name": "bench-client"}, "provider": {"name": "bench-items"}, "interactions": interactions,
            "metadata": {"pactSpecification": {"version": "3.0.0"}}}


FORMATS = {
    "har": ("import-har", "capture.har", har),
    "postman": ("import-postman", "collection.json", postman),
    "pact": ("import-pact", "pact.json", pact),
    "har-tokens": ("import-har", "capture.har", har_tokens),
}


def import_once(binary, command, source, stubs, n):
    shutil.rmtree(stubs, ignore_errors=True)
    start = time.monotonic()
    run = subprocess.run([binary, command, source, "--stubs", stubs], capture_output=True, text=True)
    seconds = time.monotonic() - start
    m = re.search(r"(\d+) service\(s\), (\d+) route\(s\), (\d+) variant\(s\)", run.stdout)
    if run.returncode != 0 or not m or (m.group(2), m.group(3)) != ("1", str(n)):
        sys.exit(f"{command} of {n} examples: exit {run.returncode}, expected 1 route and {n} variants\n{run.stdout[:2000]}{run.stderr[:2000]}")
    return seconds


def growth(previous, n, seconds):
    """t(N)/t(N/2) when the size before was half this one."""
    return f"{seconds / previous[1]:.2f}" if previous and previous[0] * 2 == n else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="the stubd to run (default: build the release one)")
    parser.add_argument("--reference", help="another stubd to time on the same files (the build before a change)")
    parser.add_argument("--sizes", default="2500,5000,10000,20000")
    parser.add_argument("--runs", type=int, default=1, help="imports per size; the fastest counts")
    parser.add_argument("--formats", default="har,postman,pact")
    parser.add_argument("--dir", help="where the temporary files go (default: /dev/shm when there is one)")
    parser.add_argument("--keep", help="write files and stub trees here, and keep them")
    args = parser.parse_args()
    binary = args.binary or build_release()
    sizes = [int(s) for s in args.sizes.split(",")]
    base = args.dir or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    work = args.keep or tempfile.mkdtemp(prefix="stubd-import-scale-", dir=base)
    os.makedirs(work, exist_ok=True)
    print(f"binary: {binary}" + (f", reference: {args.reference}" if args.reference else "") + f", files in {work}")
    if args.reference:
        print("| format | N | seconds | t(N)/t(N/2) | reference s | t(N)/t(N/2) | reference/binary |")
        print("|---|---:|---:|---:|---:|---:|---:|")
    else:
        print("| format | N | seconds | t(N)/t(N/2) |")
        print("|---|---:|---:|---:|")
    try:
        for name in args.formats.split(","):
            command, filename, make = FORMATS[name]
            previous = reference_previous = None
            for n in sizes:
                folder = os.path.join(work, f"{name}-{n}")
                os.makedirs(folder, exist_ok=True)
                source = os.path.join(folder, filename)
                with open(source, "w") as f:
                    json.dump(make(n), f)
                stubs = os.path.join(folder, "Stubs")
                seconds = min(import_once(binary, command, source, stubs, n) for _ in range(args.runs))
                row = f"| {name} | {n:,} | {seconds:.2f} | {growth(previous, n, seconds)} |"
                previous = (n, seconds)
                if args.reference:
                    reference = min(import_once(args.reference, command, source, stubs + "-reference", n) for _ in range(args.runs))
                    row += f" {reference:.2f} | {growth(reference_previous, n, reference)} | {reference / seconds:.2f} |"
                    reference_previous = (n, reference)
                print(row, flush=True)
                if not args.keep:
                    shutil.rmtree(folder)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
