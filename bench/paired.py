#!/usr/bin/env python3
"""A paired run: two stubd builds (say, before and after a change) serving the same stubs in one
run, rounds alternating between them, so that the machine's drift hits both alike. The question
it answers is whether a change to the request path costs or saves server CPU.

Cases (each wrk -t1 -c50 over keep-alive, stubd with --threads 1 --log off --no-watch, journal on):
  small  the shipped small fixture (/api/v1/users/1, Stubs/app/user/200.json), with bench/floor.c
         (bare libmicrohttpd, same daemon flags) beside it as the reference
  table  every route of a 10,000-route table in a shuffled order (half literal, half with a parameter)

Per case and build: server CPU microseconds per request (user + system of the server process over
the requests it answered), its user part alone (the kernel's share is the same code for every
build, and the larger part of the noise), and req/s, medians over rounds; then after/before per round, with the
median and range of those ratios (a pair shares a round, so its ratio cancels the round's noise).
Every server is first checked to answer the same bytes. Servers run on core 1 and wrk on core 0
(taskset), so the load generator does not take the server's core in some rounds and not others. Pass binaries built against the
libmicrohttpd under test (scripts/test-mhd1.sh builds one for 1.0.1; --floor-pkg-config points
the floor at the same release).

usage: bench/paired.py --before PATH --after PATH [--rounds N] [--seconds S] [--cases small,table] [--stubs DIR]
                       [--floor-pkg-config DIR]
"""
import argparse
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Server, compile_c, cpu_seconds, median, pkg_config, route_table, spread_script, stubd_command, wrk, write_stub_tree  # noqa: E402

FIXTURE = "/api/v1/users/1"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--before", required=True, help="the reference stubd binary")
    p.add_argument("--after", required=True, help="the stubd binary with the change")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--seconds", type=int, default=3)
    p.add_argument("--cases", default="small,table")
    p.add_argument("--stubs", default=os.path.join(ROOT, "Stubs"),
                   help="the small case's stub folder (default: the shipped Stubs; an older build may need its own)")
    p.add_argument("--floor-pkg-config", help="PKG_CONFIG_PATH for the floor's libmicrohttpd (default: the system's)")
    p.add_argument("--no-pin", action="store_true", help="do not pin the servers to core 1 and wrk to core 0")
    return p.parse_args()


def user_seconds(pid):
    """User CPU seconds used so far by process PID."""
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[11]) / os.sysconf("SC_CLK_TCK")


def pinned(a, cmd):
    return cmd if a.no_pin else ["taskset", "-c", "1", *cmd]


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
        stubs = a.stubs
        fixture = os.path.join(stubs, "app", "user", "200.json")
        for name in ("before", "after"):
            servers.append((name, Server(name, pinned(a, stubd_command(getattr(a, name), stubs)), os.path.join(work, f"{name}.out"), ready_path=FIXTURE)))
        _, _, headers = servers[0][1].get(FIXTURE)
        servers.append(("floor", Server("floor", pinned(a, [floor_binary(a, work), "0", fixture, headers["Content-Type"]]),
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
        servers.append((name, Server(name, pinned(a, stubd_command(getattr(a, name), stubs)), os.path.join(work, f"{name}-table.out"),
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
    cpu, user, rps = {}, {}, {}
    try:
        for r in range(a.rounds):
            # Alternate which build goes first, so neither always follows the other.
            turn = servers[:2] if r % 2 == 0 else servers[1::-1]
            for name, server in turn + servers[2:]:
                before, before_user = cpu_seconds(server.pid), user_seconds(server.pid)
                res = wrk(server.url(path), a.seconds, script=script, cpu=None if a.no_pin else 0)
                if res["non2xx"] or res["errors"]:
                    print(f"  warning: {case} {name}: {res['non2xx']} non-2xx, {res['errors']} socket errors")
                cpu.setdefault(name, []).append((cpu_seconds(server.pid) - before) / res["requests"] * 1e6)
                user.setdefault(name, []).append((user_seconds(server.pid) - before_user) / res["requests"] * 1e6)
                rps.setdefault(name, []).append(res["rps"])
                print(f"  {case} round {r + 1}: {name:6s} {res['rps']:9.0f} req/s {cpu[name][-1]:6.2f} us/req ({user[name][-1]:5.2f} user)", flush=True)
    finally:
        for _, server in servers:
            server.stop()
    return cpu, user, rps


def main():
    a = parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for case in a.cases.split(","):
            cpu, user, rps = run_case(a, work, case)
            pairs = {label: [x / y for x, y in zip(m["after"], m["before"])]
                     for label, m in (("CPU per request", cpu), ("user CPU per request", user), ("req/s", rps))}
            rows.append((case, cpu, user, rps, pairs))
    print(f"\n{'case':6s} {'build':6s} {'CPU us/req':>10s} {'user us/req':>11s} {'req/s':>9s} {'CPU/floor':>9s} {'req/s/floor':>11s}")
    for case, cpu, user, rps, _ in rows:
        for name in cpu:
            ratio = f"{median(cpu[name]) / median(cpu['floor']):9.3f}" if "floor" in cpu else f"{'-':>9s}"
            rps_ratio = f"{median(rps[name]) / median(rps['floor']):11.3f}" if "floor" in rps else f"{'-':>11s}"
            print(f"{case:6s} {name:6s} {median(cpu[name]):10.2f} {median(user[name]):11.2f} {median(rps[name]):9.0f} {ratio} {rps_ratio}")
    print(f"\n{'case':6s} {'after/before':>24s} {'median':>7s} {'range':>13s}")
    for case, _, _, _, pairs in rows:
        for label, values in pairs.items():
            print(f"{case:6s} {label:>24s} {median(values):7.3f} {min(values):6.3f}-{max(values):.3f}")


if __name__ == "__main__":
    main()
