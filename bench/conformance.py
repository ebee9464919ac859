#!/usr/bin/env python3
"""`make conformance`: stubd against material nobody here wrote.

1. The JSON Schema Test Suite (draft4 and draft2020-12, the optional files too) through stubd's
   validator: per file, cases, passes, skips (each named with its reason with --failures) and
   failures.
2. Real OpenAPI documents (Stripe, OpenAI, DigitalOcean, the OAI examples with Swagger 2.0):
   per document, operations, routes written, the import's exit status, time and peak RSS,
   drift of the imported stubs against their own document (`check --openapi`; the document's
   own invalid examples counted apart), how many routes answer their default variant with its
   status when served, and the server's start time and RSS.
3. The bodies (issue 57), when openapi-schema-validator imports (else it says so and runs without;
   under CI=true, where .ci/run installs it, that fails): every variant of every route requested
   from the served stubs, its Content-Type compared with the response's documented media types and
   its body validated against the document's schema for that type (OAS30Validator for 3.0,
   OAS31Validator for 3.1, OAS30Validator with x-nullable for Swagger 2.0; bench/openapi_bodies.py).
   Per document: bodies checked, invalid, of which the document's own example (named by the import),
   Content-Types served and undocumented; --bodies lists each.

The material is read from ../shared/corpus (or --corpus). Without it, this prints where to get it
and exits 0 having run nothing; a part of it missing is named and left out. Under CI=true (.ci/run)
either fails the run instead (exit 1): a skip there would pass for a green run.
More documents, fetched by hand and kept outside the repository, join the table with
--document "TITLE=PATH" (repeatable), e.g. Spotify's, from github.com/sonallux/spotify-web-api:
official-spotify-open-api.yml (as Spotify publishes it) and fixed-spotify-open-api.yml (with that
project's corrections); Twilio's from github.com/twilio/twilio-oai (spec/yaml/twilio_api_v2010.yaml);
Box's from github.com/box/box-openapi (openapi.json). Issue 57's round added, from
github.com/pagopa/io-backend: api_backend.yaml (Swagger 2.0; remote $refs to
raw.githubusercontent.com/pagopa/io-functions-commons/v29.1.1/openapi/*.yaml, read from copies saved
beside it as raw.githubusercontent.com/pagopa/io-functions-commons/v29.1.1/openapi/, i.e. that
repository's openapi/ folder at tag v29.1.1; file refs into the repository's own openapi/ folder;
image/png and octet-stream answers), api_io_sign.yaml (3.0.1, remote $refs to v26.3.0's, copied
the same way; octet-stream), api_services_app_backend.yaml (3.0.2, remote $refs to v29.1.1's) and
openapi/consumed/api-piattaforma-notifiche.yaml (path keys without a leading /,
application/problem+json, application/pdf); and Zalando's Nakadi from github.com/zalando/nakadi
(docs/_data/nakadi-event-bus-api.yaml: Swagger 2.0, application/x-json-stream).
"""
import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Daemon, print_table, stub_routes  # noqa: E402
import openapi_bodies  # noqa: E402

DOCUMENTS = [
    ("Stripe (3.0)", "openapi/stripe/spec3.yaml"),
    ("OpenAI (3.1)", "openapi/openai/openapi.yaml"),
    ("DigitalOcean (3.0, split)", "openapi/digitalocean/specification/DigitalOcean-public.v2.yaml"),
]


# Options every import gets (--all-keys adds `--all-keys`: bodies with every property filled).
IMPORT_OPTIONS = []

UNDER_CI = " under CI=true, where the conformance run may not skip: .ci/run expects ../shared/corpus beside the checkout"


def oai_examples(corpus):
    folder = os.path.join(corpus, "openapi/oai-examples")
    found = []
    for version in ("v2.0", "v3.0", "v3.1"):
        for dirpath, _, names in sorted(os.walk(os.path.join(folder, version))):
            for name in sorted(names):
                if not name.endswith((".json", ".yaml")) or "petstore-separate" in dirpath and name != "swagger.json":
                    continue
                path = os.path.join(dirpath, name)
                found.append((f"OAI {version} {os.path.relpath(path, os.path.join(folder, version))}", os.path.relpath(path, corpus)))
    return found


def build(config):
    subprocess.run(["swift", "build", "-c", config, "--product", "stubd"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["swift", "build", "-c", config, "--product", "stubd-conformance"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "-c", config, "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "stubd"), os.path.join(out, "stubd-conformance")


def peak_rss(cmd):
    """Runs cmd; returns (exit status, seconds, its own peak RSS in MB, stdout, stderr)."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        code = os.waitstatus_to_exitcode(status)
        return code, elapsed, usage.ru_maxrss / 1024, out.read().decode(), err.read().decode()


def routes_of(stubs):
    """(method, path, expected status) of each route's default variant."""
    found = []
    for _, _, base, spec in stub_routes(stubs):
        names = list(spec.get("variants", {}))
        default = spec.get("default") or next((n for n in names if n[:1] == "2"), names[0] if names else "200")
        status = int(re.match(r"\d+", default).group(0))
        found.append((spec["method"], re.sub(r"\{[^}]+\}", "1", base + spec["path"]), status))
    return found


def serve_and_probe(binary, stubs, bodies=None):
    """Starts the server on the stubs, requests every route; (answered as documented, routes, 2xx, start ms, RSS MB).
    `bodies(host, port)`, when given, runs against the same server before it stops."""
    start = time.monotonic()
    daemon = Daemon(binary, stubs=stubs)
    try:
        conn = http.client.HTTPConnection(daemon.host, daemon.port, timeout=10)
        conn.request("GET", "/__stubd/health")
        conn.getresponse().read()
        started_ms = (time.monotonic() - start) * 1000
        routes = routes_of(stubs)
        right = ok = 0
        for method, path, status in routes:
            conn.request(method, path)
            response = conn.getresponse()
            response.read()
            right += response.status == status
            ok += 200 <= response.status < 300
        _, rss = daemon.stats()
        if bodies:
            bodies(daemon.host, daemon.port)
        return right, len(routes), ok, started_ms, rss
    finally:
        daemon.stop()


def document_row(binary, corpus, title, relative, scratch, body_rows=None, problems=None):
    spec = os.path.join(corpus, relative)
    stubs = os.path.join(scratch, re.sub(r"\W+", "-", title))
    # The OAI's split example refers to ../common: its folder tree is the parent's.
    widen = ["--spec-root", os.path.dirname(os.path.dirname(spec))] if "petstore-separate" in relative else []
    code, seconds, peak, out, err = peak_rss([binary, "import-openapi", spec, "--stubs", stubs, *widen, *IMPORT_OPTIONS])
    m = re.search(r"Imported (\d+) route\(s\) from (\d+) operation", out)
    routes, operations = (int(m.group(1)), int(m.group(2))) if m else (0, "?")
    if not m:
        # An older build's summary: "Imported N operation(s) of …", then one line per route.
        old = re.search(r"Imported (\d+) operation", out)
        operations = int(old.group(1)) if old else "?"
        routes = len([line for line in out.splitlines() if line.startswith("  ") and "variants:" in line])
    row = {"document": title, "operations": operations, "routes": routes, "import exit": code, "import s": f"{seconds:.2f}",
           "import peak MB": f"{peak:.0f}" if peak else "?", "drift": "-", "own examples": "-", "answer as documented": "-",
           "2xx": "-", "start ms": "-", "RSS MB": "-", "notes": ""}
    if code != 0 or routes == 0:
        row["notes"] = (err.strip().splitlines() or ["?"])[-1][:120]
        return row
    check = subprocess.run([binary, "check", stubs, "--openapi", spec], capture_output=True, text=True)
    row["drift"] = len([line for line in check.stdout.splitlines() if line.strip()]) if check.returncode else 0
    row["own examples"] = len(re.findall(r"the document's own example", err))
    bodies = None
    if body_rows is not None:
        def bodies(host, port):
            lines = []
            try:
                found = openapi_bodies.check(stubs, spec, host, port, err, widen[1] if widen else None, lines)
            except Exception as failure:  # the pass's own failure is a row, not the end of the run
                found = {**dict.fromkeys(("bodies", "invalid", "own example", "types", "undocumented type", "unchecked"), "?"),
                         "notes": f"{type(failure).__name__}: {str(failure)[:120]}"}
            body_rows.append({"document": title, **found})
            problems.extend(f"{title}: {line}" for line in lines)
    right, count, ok, started, rss = serve_and_probe(binary, stubs, bodies)
    row.update({"answer as documented": f"{right}/{count}", "2xx": ok, "start ms": f"{started:.0f}", "RSS MB": f"{rss:.0f}"})
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(ROOT), "shared", "corpus"))
    parser.add_argument("--config", default="release", choices=["release", "debug"])
    parser.add_argument("--failures", action="store_true", help="list each failed and skipped suite case")
    parser.add_argument("--binary", help="a stubd to run the documents through instead of this checkout's (an older build, for a before column)")
    parser.add_argument("--document", action="append", default=[], metavar="TITLE=PATH",
                        help="one more OpenAPI document, outside the corpus (fetched by hand)")
    parser.add_argument("--all-keys", action="store_true", help="import with --all-keys: every property of a made body filled, so the body pass sees them all")
    parser.add_argument("--bodies", action="store_true", help="list each invalid body and undocumented Content-Type of the body pass")
    args = parser.parse_args()
    if args.all_keys:
        IMPORT_OPTIONS.append("--all-keys")
    # Under CI a corpus missing from a ../shared that is there is a broken set-up and fails; a
    # clone with no ../shared at all is a supported layout, which says it ran nothing.
    ci = os.environ.get("CI", "").lower() == "true" and os.path.isdir(os.path.dirname(os.path.abspath(args.corpus)))
    if not os.path.isdir(args.corpus):
        print(f"conformance: no corpus at {args.corpus}; nothing run{UNDER_CI if ci else ''}.\n"
              "Put the material in ../shared/corpus (or pass --corpus DIR):\n"
              "  json-schema-test-suite/tests  from github.com/json-schema-org/JSON-Schema-Test-Suite\n"
              "  openapi/stripe/spec3.yaml     from github.com/stripe/openapi\n"
              "  openapi/openai/openapi.yaml   from github.com/openai/openai-openapi\n"
              "  openapi/digitalocean/specification  from github.com/digitalocean/openapi\n"
              "  openapi/oai-examples/{v2.0,v3.0,v3.1}  from github.com/OAI/OpenAPI-Specification (examples/)",
              file=sys.stderr if ci else sys.stdout)
        return 1 if ci else 0
    suite = os.path.join(args.corpus, "json-schema-test-suite", "tests")
    absent = [] if os.path.isdir(suite) else [os.path.relpath(suite, args.corpus)]
    absent += [r for _, r in DOCUMENTS if not os.path.exists(os.path.join(args.corpus, r))]
    if not oai_examples(args.corpus):
        absent.append("openapi/oai-examples")
    for relative in absent:
        print(f"conformance: {relative} is not in {args.corpus}{UNDER_CI if ci else '; left out'}", file=sys.stderr)
    if absent and ci:
        return 1
    # A given binary is run as it is: nothing is built (the suite needs this checkout's runner).
    binary, runner = (args.binary, None) if args.binary else build(args.config)
    if os.path.isdir(suite) and not args.binary:
        print("## JSON Schema Test Suite\n")
        sys.stdout.flush()
        subprocess.run([runner, "schema-suite", suite] + (["--failures"] if args.failures else []), check=True)
    documents = [(t, r) for t, r in DOCUMENTS + oai_examples(args.corpus) if os.path.exists(os.path.join(args.corpus, r))]
    # An absolute path is kept as it is by os.path.join.
    documents += [tuple(item.split("=", 1)) for item in args.document]
    # The body pass needs openapi-schema-validator; .ci/run installs it, so under CI its absence fails.
    if not openapi_bodies.available():
        print(f"conformance: body pass not run: openapi-schema-validator does not import ({openapi_bodies.MISSING}); "
              "pip install openapi-schema-validator" + (" under CI=true, where .ci/run installs it" if ci else ""),
              file=sys.stderr)
        if ci:
            return 1
    body_rows = [] if openapi_bodies.available() else None
    problems = []
    scratch = tempfile.mkdtemp(prefix="stubd-conformance-")
    try:
        rows = [document_row(binary, args.corpus, title, relative, scratch, body_rows, problems) for title, relative in documents]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("## OpenAPI documents\n")
    print_table(rows)
    if body_rows is not None:
        print("\n## Served bodies against the document (openapi-schema-validator)\n")
        print_table(body_rows)
        if args.bodies and problems:
            print()
            print("\n".join(problems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
