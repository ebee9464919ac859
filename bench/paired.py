#!/usr/bin/env python3
"""A paired run: two stubd builds (say, before and after a change) serving the same stubs in one
run, rounds alternating between them, so that the machine's drift hits both alike. The question
it answers is whether a change to the request path costs or saves server CPU.

Cases (each wrk -t1 -c50 over keep-alive, stubd with --threads 1 --log off --no-watch, journal on):
  small  the shipped small fixture (/api/v1/users/1, Stubs/app/user/200.json), with bench/floor.c
         (bare libmicrohttpd, same daemon flags) beside it as the reference
  table  every route of a 10,000-route table in a shuffled order (half literal, half with a parameter)

Per case and build: server CPU microseconds per request (user + system of the server process over
the requests it answered) and req/s, medians over rounds; then after/before per round, with the
median and range of those ratios (a pair shares a round, so its ratio cancels the round's noise).
Every server is first checked to answer the same bytes. Pass binaries built against the
libmicrohttpd under test (scripts/test-mhd1.sh builds one for 1.0.1; --floor-pkg-config points
the floor at the same release).

usage: bench/paired.py --before PATH --after PATH [--rounds N] [--seconds S] [--cases small,table]
                       [--floor-pkg-config DIR]
"""
import argparse
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Server, compile_c, cpu_seconds, median, pkg_config, route_table, stubd_command, wrk, write_stub_tree  # noqa: E402

FIXTURE = "/api/v1/users/1"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--before", required=True, help="the reference stubd binary")
    p.add_argument("--after", required=True, help="the stubd binary with the change")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--seconds", type=int, default=3)
    p.add_argument("--cases", default="small,table")
    p.add_argument("--floor-pkg-config", help="PKG_CONFIG_PATH for the floor's libmicrohttpd (default: the system's)")
    return p.parse_args()


def spread_script(work, paths):
    """A wrk Lua script that sends PATHS in turn."""
    lua = "local paths = {\n" + "".join(f'  "{p}",\n' for p in paths) + "}\n" + """
local reqs, i = {}, 0
init = function(args)
  for k, p in ipairs(paths) do reqs[k] = wrk.format("GET", p) end
end
request = function()
  i = i % #reqs + 1
  return reqs[i]
end
"""
    path = os.path.join(work, "spread.lua")
    with open(path, "w") as f:
        f.write(lua)
    return path


def floor_binary(a, work):
    if a.floor_pkg_config:
        os.environ["PKG_CONFIG_PATH"] = a.floor_pkg_config
    flags = pkg_config("libmicrohttpd")
    rpath = [f"-Wl,-rpath,{f[2:]}" for f in flags if f.startswith("-L")]
    return compile_c("floor.c", work, *flags, *rpath)


def start_case(a, work, case):
    """(servers, paths, script): the servers of CASE, each checked to answer the same bytes."""
    servers = []
    if case == "small":
        stubs = os.path.join(ROOT, "Stubs")
        fixture = os.path.join(stubs, "app", "user", "200.json")
        for name in ("before", "after"):
            servers.append((name, Server(name, stubd_command(getattr(a, name), stubs), os.path.join(work, f"{name}.out"), ready_path=FIXTURE)))
        _, _, headers = servers[0][1].get(FIXTURE)
        servers.append(("floor", Server("floor", [floor_binary(a, work), "0", fixture, headers["Content-Type"]],
                                        os.path.join(work, "floor.out"), ready_path=FIXTURE)))
        expected = open(fixture, "rb").read()
        for name, server in servers:
            status, body, _ = server.get(FIXTURE)
            if status != 200 or body != expected:
                sys.exit(f"{name} answers {FIXTURE} with {status} and {len(body)} bytes, not the fixture's; not timing it")
        return servers, FIXTURE, None
    table = route_table(10_000)
    stubs = write_stub_tree(os.path.join(work, "table"), [(f, p, b) for f, p, _, b in table])
    paths = ["/api/v1" + path for _, _, path, _ in table]
    for name in ("before", "after"):
        servers.append((name, Server(name, stubd_command(getattr(a, name), stubs), os.path.join(work, f"{name}-table.out"),
                                     ready_path=paths[0])))
    for _, _, path, body in table[::97]:
        for name, server in servers:
            status, got, _ = server.get("/api/v1" + path)
            if status != 200 or got != body:
                sys.exit(f"{name} answers {path} with {status}, not its route's body; not timing it")
    order = paths[:]
    random.Random(1).shuffle(order)
    return servers, "/", spread_script(work, order)


def run_case(a, work, case):
    servers, path, script = start_case(a, work, case)
    cpu, rps = {}, {}
    try:
        for r in range(a.rounds):
            # Alternate which build goes first, so neither always follows the other.
            turn = servers[:2] if r % 2 == 0 else servers[1::-1]
            for name, server in turn + servers[2:]:
                before = cpu_seconds(server.pid)
                res = wrk(server.url(path), a.seconds, script=script)
                if res["non2xx"] or res["errors"]:
                    print(f"  warning: {case} {name}: {res['non2xx']} non-2xx, {res['errors']} socket errors")
                cpu.setdefault(name, []).append((cpu_seconds(server.pid) - before) / res["requests"] * 1e6)
                rps.setdefault(name, []).append(res["rps"])
                print(f"  {case} round {r + 1}: {name:6s} {res['rps']:9.0f} req/s {cpu[name][-1]:6.2f} us/req", flush=True)
    finally:
        for _, server in servers:
            server.stop()
    return cpu, rps


def main():
    a = parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for case in a.cases.split(","):
            cpu, rps = run_case(a, work, case)
            pairs_cpu = [x / y for x, y in zip(cpu["after"], cpu["before"])]
            pairs_rps = [x / y for x, y in zip(rps["after"], rps["before"])]
            rows.append((case, cpu, rps, pairs_cpu, pairs_rps))
    print(f"\n{'case':6s} {'build':6s} {'CPU us/req':>10s} {'req/s':>9s} {'CPU/floor':>9s}")
    for case, cpu, rps, _, _ in rows:
        for name in cpu:
            ratio = f"{median(cpu[name]) / median(cpu['floor']):9.3f}" if "floor" in cpu else f"{'-':>9s}"
            print(f"{case:6s} {name:6s} {median(cpu[name]):10.2f} {median(rps[name]):9.0f} {ratio}")
    print(f"\n{'case':6s} {'after/before':>24s} {'median':>7s} {'range':>13s}")
    for case, _, _, pairs_cpu, pairs_rps in rows:
        for label, pairs in (("CPU per request", pairs_cpu), ("req/s", pairs_rps)):
            print(f"{case:6s} {label:>24s} {median(pairs):7.3f} {min(pairs):6.3f}-{max(pairs):.3f}")


if __name__ == "__main__":
    main()
