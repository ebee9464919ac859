#!/usr/bin/env python3
"""`stubd check --graphql` against graphql-core on invalid operations, problem by problem: for
each document of docs/graphql/invalid (each breaks one of graphql-core's validation rules, against
docs/graphql/schema.graphqls) and, with --github, a few written for GitHub's public schema, prints
graphql-core's problems and stubd's as (line, column, message) and whether the two sets are the
same. graphql-core's spelling suggestions ("Did you mean 'name'?") are left out of the comparison
(stubd does not make them) and its Python `None` read as GraphQL's `null`; a problem graphql-core
gives no location compares by message alone.

usage: bench/graphql-rules.py [--binary PATH] [--github SCHEMA]
  --github: GitHub's public schema (github.com/octokit/graphql-schema, schema.graphql).
  Needs graphql-core (pip install graphql-core). Exit 0 when every document agrees.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from common import ROOT  # noqa: E402

# bench/graphql.py would shadow the graphql package (graphql-core): look for it elsewhere.
sys.path = [path for path in sys.path if os.path.abspath(path or ".") != os.path.dirname(os.path.abspath(__file__))]

GITHUB_OPERATIONS = {
    "github-unique-operation-names": 'query A { viewer { login } }\nquery A { viewer { name } }\n',
    "github-fields-on-correct-type": 'query A {\n  viewer { login nickname }\n}\n',
    "github-possible-fragment-spreads": 'query A {\n  viewer { ...R }\n}\nfragment R on Repository { name }\n',
    "github-required-argument": 'query A {\n  repository(owner: "a") { id }\n}\n',
    "github-enum-string": 'query A {\n  search(query: "x", type: "REPOSITORY", first: 2) { repositoryCount }\n}\n',
    "github-overlapping-arguments": 'query A {\n  viewer {\n    r: repositories(first: 1) { totalCount }\n    r: repositories(first: 2) { totalCount }\n  }\n}\n',
    "github-overlapping-types": 'query A {\n  search(query: "x", type: ISSUE, first: 1) {\n    nodes {\n      ... on Issue { n: number }\n      ... on PullRequest { n: title }\n    }\n  }\n}\n',
    "github-variable-position": 'query A($n: String) {\n  viewer { repositories(first: $n) { totalCount } }\n}\n',
    "github-required-input-field": 'query A {\n  viewer { repositories(first: 1, orderBy: {direction: ASC}) { totalCount } }\n}\n',
    "github-enum-value": 'query A {\n  viewer { repositories(first: 1, privacy: PUBLIK) { totalCount } }\n}\n',
    "github-list-item-variable": 'query A($s: IssueState) {\n  repository(owner: "a", name: "b") { issues(first: 1, states: [$s]) { totalCount } }\n}\n',
    "github-union-member-spread": 'query A {\n  search(query: "x", type: ISSUE, first: 1) {\n    nodes { ... on User { login } ... on Bot { login } }\n  }\n}\n',
    "github-subfield-types": 'query A {\n  node(id: "1") {\n    ... on Issue { author { login } }\n    ... on PullRequest { author { login: url } }\n  }\n}\n',
    # Valid operations: neither side may find a problem.
    "github-valid-fragments": 'query A($owner: String!, $name: String!, $n: Int = 10, $after: String) {\n  repository(owner: $owner, name: $name) {\n'
        '    ...Repo\n    issues(first: $n, after: $after, orderBy: {field: CREATED_AT, direction: DESC}, states: [OPEN]) {\n'
        '      nodes { ...IssueFields }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n}\n'
        'fragment Repo on Repository { id name owner { login ... on User { name } ... on Organization { name } } }\n'
        'fragment IssueFields on Issue { number title author { login } labels(first: 5) { nodes { name } } }\n',
    "github-valid-abstract": 'query A {\n  search(query: "x", type: ISSUE, first: 5) {\n    nodes {\n      __typename\n'
        '      ... on Issue { n: number title }\n      ... on PullRequest { n: number title merged }\n      ... on Node { id }\n    }\n  }\n}\n',
}


def comparable(message):
    message = re.sub(r"'\. Did you mean [^?]*\? Found: ", "', found: ", message)
    # Suggestions of names only: ScalarLeafs' "Did you mean 'user { ... }'?" is stubd's too.
    names = r"'[^' ]*'(?:(?:, |,? or )'[^' ]*')*"
    return re.sub(rf" Did you mean (?:to use an inline fragment on |the enum value )?{names}\?", "", message).replace("not to be None.", "not to be null.")


def graphql_core(sdl, documents):
    from graphql import build_ast_schema, parse, validate
    schema = build_ast_schema(parse(sdl), assume_valid=True)
    out = []
    for text in documents:
        errors = validate(schema, parse(text))
        out.append([(e.locations[0].line, e.locations[0].column, comparable(e.message)) if e.locations else (0, 0, comparable(e.message))
                    for e in errors])
    return out


def stubd(binary, schema_file, documents):
    """Runs `stubd check` on a stub directory with one operation route per document."""
    work = tempfile.mkdtemp(prefix="stubd-gqlrules-")
    try:
        for i, document in enumerate(documents):
            # A service per document: a service answers each operation name once.
            service = os.path.join(work, f"api{i}")
            os.makedirs(service)
            with open(os.path.join(service, "_service.json"), "w") as f:
                json.dump({"graphql": {"path": f"/graphql{i}"}}, f)
            m = re.search(r"(?:query|mutation|subscription)\s+(\w+)", document)
            route = os.path.join(service, "op")
            os.makedirs(route)
            with open(os.path.join(route, "route.json"), "w") as f:
                json.dump({"operation": m.group(1) if m else "Anonymous"}, f)
            with open(os.path.join(route, "operation.graphql"), "w") as f:
                f.write(document)
            with open(os.path.join(route, "200.json"), "w") as f:
                f.write('{"data": null}\n')
        out = subprocess.run([binary, "check", work, "--graphql", schema_file], capture_output=True, text=True)
        if os.environ.get("GRAPHQL_RULES_DEBUG"):
            print(out.stdout, out.stderr)
        if out.returncode not in (0, 1):
            sys.exit(f"stubd check failed: {out.stdout[-500:]}{out.stderr[-500:]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    per_document = [[] for _ in documents]
    for line in out.stdout.splitlines():
        m = re.match(r"api(\d+)/op/operation\.graphql:(\d+):(\d+): (.*)", line)
        if m:
            per_document[int(m.group(1))].append((int(m.group(2)), int(m.group(3)), m.group(4)))
    return per_document


def agree(theirs, ours):
    placed = sorted(t for t in theirs if t[0])
    unplaced = sorted(t[2] for t in theirs if not t[0])
    ours = sorted(ours)
    for message in unplaced:
        match = next((o for o in ours if o[2] == message), None)
        if match is None:
            return False
        ours.remove(match)
    return placed == ours


def run(label, schema_file, names, documents, binary, verbose=False):
    theirs = graphql_core(open(schema_file).read(), documents)
    ours = stubd(binary, os.path.abspath(schema_file), documents)
    same = 0
    print(f"{label}: {len(documents)} documents against {os.path.relpath(schema_file, ROOT) if schema_file.startswith(ROOT) else schema_file}")
    print(f"{'document':48} {'graphql-core':>12} {'stubd':>6}  agree")
    for name, t, o in zip(names, theirs, ours):
        ok = agree(t, o)
        same += ok
        print(f"{name[:48]:48} {len(t):>12} {len(o):>6}  {'yes' if ok else 'NO'}")
        if verbose and ok:
            for line, column, message in sorted(t):
                print(f"    {line}:{column} {message[:140]}")
        for line, column, message in sorted(set(t) | set(o)):
            side = "both" if (line, column, message) in t and (line, column, message) in o else ("graphql-core" if (line, column, message) in t else "stubd")
            if not ok or side != "both":
                print(f"    {side:12} {line}:{column} {message[:140]}")
    print(f"{label}: {same} of {len(documents)} documents agree (line, column and message)\n")
    return same, len(documents)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", default=os.path.join(ROOT, ".build/release/stubd"))
    p.add_argument("--github")
    p.add_argument("--verbose", action="store_true", help="print the problems of the documents that agree too")
    a = p.parse_args()
    files = sorted(glob.glob(os.path.join(ROOT, "docs/graphql/invalid/*.graphql")))
    names = [os.path.basename(f)[:-len(".graphql")] for f in files]
    same, total = run("docs/graphql/invalid", os.path.join(ROOT, "docs/graphql/schema.graphqls"), names, [open(f).read() for f in files], a.binary, a.verbose)
    if a.github:
        s, t = run("GitHub", a.github, list(GITHUB_OPERATIONS), list(GITHUB_OPERATIONS.values()), a.binary, a.verbose)
        same, total = same + s, total + t
    print(f"all: {same} of {total} documents agree")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
