#!/usr/bin/env python3
"""`stubd check --graphql` against graphql-core on a real schema: the schema's own problems
(graphql-core's SDL rules, then validate_schema with the SDL taken as valid, so both kinds show)
and a set of operations with and without argument mistakes. Prints each side's problems, whether
they agree message for message (graphql-core's "Did you mean" suggestions left out), and the
seconds each took.

usage: bench/graphql-schema-check.py SCHEMA [--binary PATH] [--operations FILE]
  SCHEMA: an SDL file, e.g. GitHub's public schema (github.com/octokit/graphql-schema,
  schema.graphql). --operations: a JSON list of operation documents (default: a few written
  for GitHub's schema). Needs graphql-core (pip install graphql-core).
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

from common import ROOT  # noqa: E402

# bench/graphql.py would shadow the graphql package (graphql-core): look for it elsewhere.
sys.path = [path for path in sys.path if os.path.abspath(path or ".") != os.path.dirname(os.path.abspath(__file__))]

GITHUB_OPERATIONS = [
    'query Ok1 { repository(owner: "a", name: "b") { issues(first: 5) { nodes { title } } } }',
    'query Ok2 { viewer { login repositories(first: 3, orderBy: {field: NAME, direction: ASC}) { nodes { name } } } }',
    'query Ok3($q: String!) { search(query: $q, type: REPOSITORY, first: 2) { repositoryCount } }',
    'query Missing { repository(owner: "a") { id } }',
    'query Unknown { repository(owner: "a", name: "b", nope: 1) { id } }',
    'query Literal { repository(owner: 1, name: "b") { id } }',
    'query Variable($n: String) { repository(owner: "a", name: "b") { issues(first: $n) { totalCount } } }',
    'query EnumString { search(query: "x", type: "REPOSITORY", first: 2) { repositoryCount } }',
    'query Undefined { repository(owner: $owner, name: "b") { id } }',
    'query Unused($x: Int) { viewer { login } }',
]


def graphql_core(sdl, documents):
    from graphql import build_ast_schema, parse, validate, validate_schema
    from graphql.validation.validate import validate_sdl
    start = time.perf_counter()
    ast = parse(sdl)
    schema_problems = [e.message for e in validate_sdl(ast)]
    schema = build_ast_schema(ast, assume_valid_sdl=True)
    schema_problems += [e.message for e in validate_schema(schema)]
    # Operations are validated against the schema as it is, problems and all (as stubd does).
    lenient = build_ast_schema(ast, assume_valid=True)
    per_document = [[e.message for e in validate(lenient, parse(d))] for d in documents]
    return schema_problems, per_document, time.perf_counter() - start


def stubd(binary, schema_file, documents):
    """Runs `stubd check` on a stub directory with one operation route per document."""
    work = tempfile.mkdtemp(prefix="stubd-gqlcheck-")
    try:
        service = os.path.join(work, "api")
        os.makedirs(service)
        with open(os.path.join(service, "_service.json"), "w") as f:
            json.dump({"graphql": {"path": "/graphql"}}, f)
        for i, document in enumerate(documents):
            name = re.search(r"(?:query|mutation|subscription)\s+(\w+)", document).group(1)
            route = os.path.join(service, f"op{i}")
            os.makedirs(route)
            with open(os.path.join(route, "route.json"), "w") as f:
                json.dump({"operation": name}, f)
            with open(os.path.join(route, "operation.graphql"), "w") as f:
                f.write(document + "\n")
            with open(os.path.join(route, "200.json"), "w") as f:
                f.write('{"data": null}\n')
        start = time.perf_counter()
        out = subprocess.run([binary, "check", work, "--graphql", schema_file], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if out.returncode not in (0, 1) or "problem(s) against" not in out.stderr + out.stdout and out.returncode == 1:
            sys.exit(f"stubd check did not run the GraphQL check: {out.stdout[-500:]}{out.stderr[-500:]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    schema_problems, per_document = [], [[] for _ in documents]
    for line in out.stdout.splitlines():
        if line.startswith(schema_file + ":"):
            schema_problems.append(line.split(": ", 1)[1])
        m = re.match(r"api/op(\d+)/operation\.graphql:\d+:\d+: (.*)", line)
        if m:
            per_document[int(m.group(1))].append(m.group(2))
    return schema_problems, per_document, seconds


def comparable(message):
    return re.sub(r" Did you mean [^?]*\?", "", message).replace("not to be None.", "not to be null.")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("schema")
    p.add_argument("--binary", default=os.path.join(ROOT, ".build/release/stubd"))
    p.add_argument("--operations")
    a = p.parse_args()
    documents = json.load(open(a.operations)) if a.operations else GITHUB_OPERATIONS
    sdl = open(a.schema).read()
    theirs = graphql_core(sdl, documents)
    ours = stubd(a.binary, os.path.abspath(a.schema), documents)
    same_schema = sorted(map(comparable, theirs[0])) == sorted(ours[0])
    print(f"schema: graphql-core {len(theirs[0])} problem(s), stubd {len(ours[0])}, {'the same' if same_schema else 'DIFFERENT'}")
    for message in sorted(set(theirs[0]) | set(ours[0])):
        print(f"  {'both' if message in ours[0] and comparable(message) in map(comparable, theirs[0]) else 'one side'}: {message[:150]}")
    agree = 0
    for document, t, o in zip(documents, theirs[1], ours[1]):
        same = sorted(map(comparable, t)) == sorted(o)
        agree += same
        print(f"{'same' if same else 'DIFF'}  {len(t)} / {len(o)}  {document[:90]}")
        if not same:
            print(f"      graphql-core: {t}\n      stubd:        {o}")
    print(f"operations: {agree} of {len(documents)} the same; seconds: graphql-core {theirs[2]:.2f} "
          f"(schema and operations, in-process), stubd {ours[2]:.2f} (the whole `check`, process start included)")
    return 0 if same_schema and agree == len(documents) else 1


if __name__ == "__main__":
    sys.exit(main())
