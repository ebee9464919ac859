#!/usr/bin/env python3
"""Schemathesis against stubs imported from real documents (issue 57, part B).

For each document: `stubd import-openapi` into a scratch folder, `stubd serve` on port 0, then
`schemathesis run DOC --url http://127.0.0.1:PORT/BASE` with the checks that apply to a mock
(not_a_server_error, status_code_conformance, content_type_conformance,
response_schema_conformance; a mock keeps no state and checks no credentials, so the stateful and
auth checks say nothing about it). Prints per document and mode: operations tested, test cases,
and failures per check (distinct failures as Schemathesis counts them), with --failures the
failures themselves.

Two modes, because a mock answers an invalid request in one of two ways:
- `plain`: `stubd serve` alone, with Schemathesis's positive data only. Every request gets its
  stub, so this asks whether what stubd serves conforms: statuses, types, bodies.
- `enforce`: `stubd serve --openapi DOC --openapi-enforce`, with positive and negative data. An
  invalid request gets 400/422/415 in the service's error envelope, as a real server would refuse
  it; this is how an app's tests would run stubd to catch bad requests (docs/contract.md).

Documents: the OAI's petstore-expanded (3.0) from ../shared/corpus (--corpus), and extra ones
with --document "TITLE=PATH" (repeatable), e.g. OpenAI's from the corpus
(openapi/openai/openapi.yaml), pagoPA's IO sign API bundled (github.com/pagopa/io-backend,
openapi/generated/api_io_sign.yaml: Schemathesis fetches remote refs over the network, the
bundled copy has none) and Zalando's Nakadi (github.com/zalando/nakadi,
docs/_data/nakadi-event-bus-api.yaml, Swagger 2.0). DigitalOcean's split document is no use here:
its operations are $refs to files, which OpenAPI does not allow and Schemathesis does not follow
(every operation is a schema error to it: "Path parameter 'droplet_id' is not defined").

    bench/schemathesis.py [--binary STUBD] [--max-examples N] [--max-time S] [--document T=PATH]

Needs schemathesis (pip install schemathesis; measured with 4.x).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Daemon, build_release, print_table  # noqa: E402

CHECKS = ["not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance"]


def base_path(stubs):
    for service in sorted(os.listdir(stubs)):
        path = os.path.join(stubs, service, "_service.json")
        if os.path.exists(path):
            return json.load(open(path)).get("basePath", "")
    return ""


def run(binary, title, spec, mode, args, scratch, failures):
    stubs = os.path.join(scratch, re.sub(r"\W+", "-", title) + "-" + mode)
    imported = subprocess.run([binary, "import-openapi", spec, "--stubs", stubs], capture_output=True, text=True)
    row = {"document": title, "mode": mode, "operations": "-", "cases": "-", **{c: "-" for c in CHECKS}, "notes": ""}
    if imported.returncode != 0:
        row["notes"] = "import failed: " + (imported.stderr.strip().splitlines() or ["?"])[-1][:100]
        return row
    extra = ["--openapi", spec, "--openapi-enforce"] if mode == "enforce" else []
    daemon = Daemon(binary, *extra, stubs=stubs)
    report = os.path.join(scratch, "report.ndjson")
    if os.path.exists(report):
        os.remove(report)  # a run that writes none must not count the last one's failures
    try:
        cmd = ["schemathesis", "run", spec, "--url", daemon.base + base_path(stubs), "--checks", ",".join(CHECKS),
               "--max-examples", str(args.max_examples), "--seed", "1", "--no-color",
               "--mode", "positive" if mode == "plain" else "all", "--phases", "examples,coverage,fuzzing",
               "--generation-database", "none", "--suppress-health-check", "all", "--report", "ndjson", "--report-ndjson-path", report,
               "--workers", "2", "--request-timeout", "10"]
        # No --max-time: with it Schemathesis fuzzes until the budget is spent. A run past the
        # budget is stopped instead, and what its report holds so far is counted.
        log = os.path.join(scratch, "schemathesis.out")
        with open(log, "w") as sink:
            proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, text=True, cwd=scratch)
            try:
                code = proc.wait(timeout=args.max_time)
            except subprocess.TimeoutExpired:
                proc.terminate()
                code = proc.wait()
                row["notes"] = f"stopped after {args.max_time} s"
    finally:
        daemon.stop()
    out = open(log).read()
    m = re.search(r"API Operations:\s+Selected: (\d+)/(\d+)\s+Tested: (\d+)", out)
    row["operations"] = f"{m.group(3)}/{m.group(2)}" if m else "?"
    m = re.search(r"Test cases:\s+(\d+) generated", out)
    row["cases"] = m.group(1) if m else "?"
    counts = {c: 0 for c in CHECKS}
    seen = set()
    for line in open(report) if os.path.exists(report) else []:
        event = json.loads(line)
        for failure in _failures(event):
            check = failure.get("title_check") or failure.get("check") or failure.get("name")
            key = (failure.get("label"), check, failure.get("title"), failure.get("message", "")[:200])
            if key in seen:
                continue
            seen.add(key)
            if check in counts:
                counts[check] += 1
            failures.append(f"{title} [{mode}] {failure.get('label')}: {check}: {failure.get('title')}: {failure.get('message', '')[:300]}")
    row.update(counts)
    if code not in (0, 1) and not row["notes"]:
        row["notes"] = (out.strip().splitlines() or ["?"])[-1][:100]
    # Cases Schemathesis could not make or send (its schema errors), not answers stubd gave.
    m = re.search(r"(\d+) errored", out.split("SUMMARY")[-1]) if "SUMMARY" in out else None
    if m:
        row["notes"] = (row["notes"] + f" {m.group(1)} cases errored in Schemathesis").strip()
    return row


def _failures(event, label=None):
    """The check failures anywhere in one NDJSON event, each with its operation's label."""
    if isinstance(event, dict):
        label = event.get("label", label) if isinstance(event.get("label"), str) else label
        if "failure_info" in event and isinstance(event["failure_info"], dict):
            info = event["failure_info"].get("failure", event["failure_info"])
            yield {**info, "label": label, "check": event.get("name")}
        for value in event.values():
            yield from _failures(value, label)
    elif isinstance(event, list):
        for value in event:
            yield from _failures(value, label)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(ROOT), "shared", "corpus"))
    parser.add_argument("--binary", help="the stubd to run (default: this checkout's release build)")
    parser.add_argument("--document", action="append", default=[], metavar="TITLE=PATH")
    parser.add_argument("--mode", action="append", choices=["plain", "enforce"], help="default: both")
    parser.add_argument("--max-examples", type=int, default=10)
    parser.add_argument("--max-time", type=int, default=120, help="seconds a run may take before it is stopped (per document and mode)")
    parser.add_argument("--failures", action="store_true", help="list each failure")
    args = parser.parse_args()
    if shutil.which("schemathesis") is None:
        print("schemathesis is not installed (pip install schemathesis); nothing run")
        return 0
    documents = []
    petstore = os.path.join(args.corpus, "openapi/oai-examples/v3.0/petstore-expanded.yaml")
    if os.path.exists(petstore):
        documents.append(("OAI petstore-expanded (3.0)", petstore))
    else:
        print(f"no {petstore}; give --corpus", file=sys.stderr)
    documents += [tuple(item.split("=", 1)) for item in args.document]
    binary = args.binary or build_release()
    version = subprocess.run(["schemathesis", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}; max {args.max_examples} examples per operation, {args.max_time} s per run\n")
    rows, failures = [], []
    scratch = tempfile.mkdtemp(prefix="stubd-schemathesis-")
    try:
        for title, spec in documents:
            for mode in args.mode or ["plain", "enforce"]:
                rows.append(run(binary, title, spec, mode, args, scratch, failures))
                print(f"{title} [{mode}]: " + ", ".join(f"{k} {v}" for k, v in rows[-1].items() if k not in ("document", "mode")), file=sys.stderr)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print_table(rows)
    if args.failures and failures:
        print()
        print("\n".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
