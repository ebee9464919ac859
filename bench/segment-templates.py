#!/usr/bin/env python3
"""What a parameter inside a segment (`/acct/{Sid}.json`) costs per request against a whole-segment
parameter (`/acct/{Sid}`) and a literal path, on a 10,000-route table, in one stubd process;
with --before, the same whole-segment and literal requests on an older build (a paired run: did
teaching the matcher mixed segments make the other lookups dearer?).

Each case is wrk -t1 -c50 over keep-alive, rounds alternating between the cases (and the two
builds), server CPU microseconds per request and req/s as medians. Every path is first checked
to answer 200 with the same bytes, so no case is timed answering something else.

usage: bench/segment-templates.py [--binary PATH] [--before PATH] [--rounds N] [--seconds S]
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, build_release, cpu_seconds, median, route_table, stubd_command, wrk, write_stub_tree  # noqa: E402

BODY = b'{"sid": "AC0123456789abcdef0123456789abcdef", "status": "active"}\n'
SID = "AC0123456789abcdef0123456789abcdef"
# The paths below the base path; the same body behind each.
CASES = {"literal": "/acct/me", "whole parameter": f"/acct/{SID}", "inside a segment": f"/acct/{SID}.json"}
ROUTES = [("me", "/acct/me"), ("whole", "/acct/{Sid}"), ("mixed", "/acct/{Sid}.json")]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", help="stubd binary (default: swift build -c release)")
    p.add_argument("--before", help="an older stubd to pair the literal and whole-parameter cases with")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=int, default=3)
    a = p.parse_args()
    binary = a.binary or build_release()
    with tempfile.TemporaryDirectory() as work:
        table = [(folder, path, body) for folder, path, _, body in route_table(10_000)]
        stubs = write_stub_tree(os.path.join(work, "after"), table + [(f, r, BODY) for f, r in ROUTES])
        servers = [("after", Server("after", stubd_command(binary, stubs), os.path.join(work, "after.out"), ready_path="/api/v1/acct/me"))]
        if a.before:
            # An older build refuses the mixed route: its table has the other two.
            old = write_stub_tree(os.path.join(work, "before"), table + [(f, r, BODY) for f, r in ROUTES[:2]])
            servers.append(("before", Server("before", stubd_command(a.before, old), os.path.join(work, "before.out"),
                                              ready_path="/api/v1/acct/me")))
        runs = [(build, case) for build, _ in servers for case in CASES if build == "after" or case != "inside a segment"]
        try:
            by_name = dict(servers)
            for build, case in runs:
                status, body, _ = by_name[build].get("/api/v1" + CASES[case])
                if status != 200 or body != BODY:
                    sys.exit(f"{build} {case}: status {status}, {len(body)} bytes, not the fixture's; not timing it")
            cpu, rps = {}, {}
            for r in range(a.rounds):
                for build, case in runs:
                    server = by_name[build]
                    before = cpu_seconds(server.pid)
                    res = wrk(server.url("/api/v1" + CASES[case]), a.seconds)
                    if res["non2xx"] or res["errors"]:
                        print(f"  warning: {build} {case}: {res['non2xx']} non-2xx, {res['errors']} socket errors")
                    cpu.setdefault((build, case), []).append((cpu_seconds(server.pid) - before) / res["requests"] * 1e6)
                    rps.setdefault((build, case), []).append(res["rps"])
                    print(f"  round {r + 1}: {build:6s} {case:17s} {res['rps']:9.0f} req/s", flush=True)
        finally:
            for _, server in servers:
                server.stop()
    whole = median(cpu[("after", "whole parameter")])
    print(f"\n{'build':6s} {'case':17s} {'CPU µs/req':>10s} {'req/s':>9s} {'CPU vs whole':>12s}")
    for key in runs:
        c = median(cpu[key])
        print(f"{key[0]:6s} {key[1]:17s} {c:10.2f} {median(rps[key]):9.0f} {c / whole:12.3f}")
    if a.before:
        for case in ("literal", "whole parameter"):
            ratio = median(cpu[("after", case)]) / median(cpu[("before", case)])
            print(f"paired: {case}, after / before CPU per request {ratio:.3f}")


if __name__ == "__main__":
    main()
