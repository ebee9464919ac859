#!/usr/bin/env python3
"""What routing by GraphQL operation costs: server CPU per request for a POST to a GraphQL
endpoint (the body parsed, the operation named, its variables matched by `when`) against a POST
to a plain route answering the same body, from the same stubd, in alternating rounds.

Both requests send the same JSON body (an Apollo-style query with variables), so the difference
is the GraphQL routing alone. Checks first that both answer the same bytes.

usage: bench/graphql.py [--binary PATH] [--rounds N] [--seconds S] [--operations N]
Needs wrk (apt-get install wrk).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Daemon, build_release, cpu_seconds, wrk  # noqa: E402

BODY = json.dumps({"data": {"user": {"id": "1", "name": "Jane Appleseed", "email": "jane@example.com"}}})
REQUEST = json.dumps({"operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { id name email } }",
                      "variables": {"id": "1"}})


def write_stubs(root, operations, when):
    """A GraphQL service with `operations` operations (GetUser among them; with `when`, its variant
    is chosen by a `when` on the variables) and a plain service whose POST /plain answers the
    same body."""
    gql = os.path.join(root, "gql")
    os.makedirs(gql)
    with open(os.path.join(gql, "_service.json"), "w") as f:
        json.dump({"graphql": {"path": "/graphql"}}, f)
    for i in range(operations):
        name = "GetUser" if i == 0 else f"Operation{i}"
        folder = os.path.join(gql, f"op{i}")
        os.makedirs(folder)
        with open(os.path.join(folder, "route.json"), "w") as f:
            variants = {"200": {"when": {"variables": {"id": "1"}}}, "200-other": {}} if when else {"200": {}, "200-other": {}}
            json.dump({"operation": name, "variants": variants}, f)
        for variant in ("200", "200-other"):
            with open(os.path.join(folder, f"{variant}.json"), "w") as f:
                f.write(BODY)
    plain = os.path.join(root, "rest", "plain")
    os.makedirs(plain)
    with open(os.path.join(plain, "route.json"), "w") as f:
        json.dump({"method": "POST", "path": "/plain"}, f)
    with open(os.path.join(plain, "200.json"), "w") as f:
        f.write(BODY)


def post(url):
    request = urllib.request.Request(url, data=REQUEST.encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.status, r.read()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=int, default=3)
    p.add_argument("--operations", type=int, default=20)
    p.add_argument("--when", action="store_true", help="the operation's variant is picked by a when on its variables")
    a = p.parse_args()
    binary = a.binary or build_release()
    with tempfile.TemporaryDirectory() as work:
        stubs = os.path.join(work, "stubs")
        write_stubs(stubs, a.operations, a.when)
        script = os.path.join(work, "post.lua")
        with open(script, "w") as f:
            f.write('wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' % json.dumps(REQUEST))
        daemon = Daemon(binary, "--threads", "1", "--no-watch", stubs=stubs)
        try:
            urls = {"plain route": daemon.base + "/plain", "GraphQL operation": daemon.base + "/graphql"}
            answers = {name: post(url) for name, url in urls.items()}
            if len({a for a in answers.values()}) != 1 or answers["plain route"][0] != 200:
                raise SystemExit(f"the two routes answer differently: {answers}")
            results = {name: {"rps": [], "cpu": []} for name in urls}
            for r in range(a.rounds):
                for name, url in (urls.items() if r % 2 == 0 else reversed(list(urls.items()))):
                    before = cpu_seconds(daemon.proc.pid)
                    run = wrk(url, a.seconds, script=script)
                    used = cpu_seconds(daemon.proc.pid) - before
                    if run["errors"] or run["non2xx"]:
                        raise SystemExit(f"{name}: {run}")
                    results[name]["rps"].append(run["rps"])
                    results[name]["cpu"].append(used / run["requests"] * 1e6)
                    print(f"  round {r + 1}: {name:18} {run['rps']:9.0f} req/s {results[name]['cpu'][-1]:6.2f} us/request", file=sys.stderr)
        finally:
            daemon.stop()
    plain, graphql = results["plain route"], results["GraphQL operation"]
    label = f"GraphQL operation ({a.operations} operations{', when on variables' if a.when else ''})"
    print(f"| | plain route | {label} | ratio |")
    print("|---|---|---|---|")
    print(f"| req/s (median) | {statistics.median(plain['rps']):.0f} | {statistics.median(graphql['rps']):.0f} | "
          f"{statistics.median(graphql['rps']) / statistics.median(plain['rps']):.3f} |")
    print(f"| server CPU per request, us (median) | {statistics.median(plain['cpu']):.2f} | {statistics.median(graphql['cpu']):.2f} | "
          f"{statistics.median(graphql['cpu']) / statistics.median(plain['cpu']):.3f} |")
    print(f"\nwrk -t1 -c50 POST of the same {len(REQUEST)}-byte JSON body, {a.rounds} alternating rounds of {a.seconds} s; "
          f"stubd --threads 1 --log off, journal on; both answer the same {len(BODY)}-byte body.")


if __name__ == "__main__":
    main()
