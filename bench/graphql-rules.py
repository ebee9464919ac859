#!/usr/bin/env python3
"""`stubd check --graphql` against graphql-core on invalid operations, problem by problem: for
each document of docs/graphql/invalid (each breaks one of graphql-core's validation rules, against
docs/graphql/schema.graphqls) and, with --github, a few written for GitHub's public schema, prints
graphql-core's problems and stubd's as (line, column, message) and whether the two sets are the
same. graphql-core's spelling suggestions ("Did you mean 'name'?") are left out of the comparison
(stubd does not make them) and its Python `None` read as GraphQL's `null`; a problem graphql-core
gives no location compares by message alone.

usage: bench/graphql-rules.py [--binary PATH] [--github SCHEMA] [--random N [--seed S]] [--verbose]
  --github: GitHub's public schema (github.com/octokit/graphql-schema, schema.graphql).
  --random: N documents made up of right and wrong parts (fields, aliases, arguments, literals,
  variables, directives, fragments) against a small schema with a union, an enum and
  input objects.
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

from common import ROOT, build_release  # noqa: E402

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


# --random: documents made up from these, against RANDOM_SCHEMA.
RANDOM_SCHEMA = """type Query { user(id: ID!): User users(first: Int = 10, after: String, role: Role, filter: Filter): [User!]!
  search(terms: [String!]!, limit: Int): [User] things: [Thing] pets: [Pet!] }
type Mutation { createUser(input: CreateUserInput!): User }
type Subscription { user(id: ID): User pets: [Pet] }
type User { id: ID! name(upper: Boolean): String! role: Role }
type Pet { name: String! tag: Int owner(id: ID): User }
union Thing = User | Pet
enum Role { ADMIN MEMBER }
input Filter { role: Role, nameContains: String, ids: [ID!] }
input CreateUserInput { name: String!, email: String!, role: Role = MEMBER }
directive @mark(reason: String!) on FIELD
"""
RANDOM_PARTS = {
    "fields": ["id", "name", "role", "user", "users", "things", "pets", "owner", "tag", "__typename", "nope", "email", "a"],
    "aliases": ["x", "y", "id", "name"],
    "types": ["User", "Pet", "Thing", "Query", "Role", "Nope", "Filter", "String"],
    "values": ['1', '"s"', 'ADMIN', 'true', 'null', '[1, 2]', '{role: ADMIN}', '{nope: 1}', '$v', '$w', '1.5', '{ids: ["1", 2]}', '"ADMIN"'],
    "arguments": ["id", "first", "role", "filter", "upper", "terms", "limit", "nope", "after"],
    "directives": ['@include(if: true)', '@skip(if: $b)', '@include', '@mark(reason: "r")', '@deprecated', '@nope', '@skip(if: 1)'],
    "variables": ["", "($v: ID)", "($v: ID!, $b: Boolean!)", "($v: Role = ADMIN, $w: [ID!])", "($v: User)", "($b: Boolean)"],
}


def random_documents(count, seed):
    """Documents made of right and wrong parts: up to 3 selections a level, 2 levels deep."""
    import random
    rng = random.Random(seed)
    parts = RANDOM_PARTS

    def directive():
        return " " + rng.choice(parts["directives"]) if rng.random() < 0.15 else ""

    def arguments():
        if rng.random() < 0.5:
            return ""
        return "(" + ", ".join(f"{rng.choice(parts['arguments'])}: {rng.choice(parts['values'])}" for _ in range(rng.randint(1, 2))) + ")"

    def selections(depth, fragments):
        out = []
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            if r < 0.12 and fragments:
                out.append("..." + rng.choice(fragments) + directive())
            elif r < 0.22:
                out.append(f"... on {rng.choice(parts['types'])}{directive()} {{ {selections(depth + 1, fragments)} }}")
            else:
                alias = rng.choice(parts["aliases"]) + ": " if rng.random() < 0.3 else ""
                inner = f" {{ {selections(depth + 1, fragments)} }}" if depth < 2 and rng.random() < 0.6 else ""
                out.append(alias + rng.choice(parts["fields"]) + arguments() + directive() + inner)
        return " ".join(out)

    documents = []
    for _ in range(count):
        fragments = [f"F{j}" for j in range(rng.randint(0, 2))]
        kind = rng.choice(["query", "query", "query", "mutation", "subscription"])
        document = f"{kind} Q{rng.choice(parts['variables'])} {{ {selections(0, fragments)} }}"
        for name in fragments:
            document += f" fragment {name} on {rng.choice(parts['types'])} {{ {selections(1, fragments)} }}"
        documents.append(document)
    return documents


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
    p.add_argument("--binary", help="the stubd to run (default: this checkout's release build, built first)")
    p.add_argument("--github")
    p.add_argument("--verbose", action="store_true", help="print the problems of the documents that agree too")
    p.add_argument("--random", type=int, metavar="N", help="also N made-up documents against a small schema of its own")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    a.binary = a.binary or build_release()
    files = sorted(glob.glob(os.path.join(ROOT, "docs/graphql/invalid/*.graphql")))
    names = [os.path.basename(f)[:-len(".graphql")] for f in files]
    same, total = run("docs/graphql/invalid", os.path.join(ROOT, "docs/graphql/schema.graphqls"), names, [open(f).read() for f in files], a.binary, a.verbose)
    if a.github:
        s, t = run("GitHub", a.github, list(GITHUB_OPERATIONS), list(GITHUB_OPERATIONS.values()), a.binary, a.verbose)
        same, total = same + s, total + t
    if a.random:
        schema = tempfile.NamedTemporaryFile("w", suffix=".graphqls", delete=False)
        schema.write(RANDOM_SCHEMA)
        schema.close()
        documents = random_documents(a.random, a.seed)
        try:
            s, t = run(f"random (seed {a.seed})", schema.name, [d[:48] for d in documents], documents, a.binary, a.verbose)
        finally:
            os.unlink(schema.name)
        same, total = same + s, total + t
    print(f"all: {same} of {total} documents agree")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
