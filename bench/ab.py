#!/usr/bin/env python3
"""Paired runs of two or more stubd binaries: the same stub tree, the same wrk load, rounds
alternating between them, so a change (a trick kept or removed, another libmicrohttpd) is judged
inside the machine's noise. Each binary is LABEL=PATH, or LABEL=PATH:LIBDIR to load libmicrohttpd
from LIBDIR (LD_LIBRARY_PATH). Reported per binary: median throughput and server CPU per request,
and each as a ratio to the first binary.

  bench/ab.py --table small   before=/tmp/stubd-a after=.build/release/stubd
  bench/ab.py --table 10000   "0.9.75=.build/release/stubd" "1.0.1=/tmp/stubd-mhd1:$PREFIX/lib"

--table small serves the shipped Stubs' /api/v1/users/1 (case a of bench/request-path.py);
--table N serves an N-route table (half literal, half with a parameter) with requests spread over
all routes (case d). Every binary must answer the same bytes before any timing.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Server, cpu_seconds, route_table, spread_script, stubd_command, wrk, write_stub_tree  # noqa: E402

FIXTURE = "/api/v1/users/1"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("binaries", nargs="+", help="LABEL=PATH[:LIBDIR]")
    p.add_argument("--table", default="small", help="small, or a number of routes")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--seconds", type=int, default=3)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="stubd-ab-")
    if a.table == "small":
        stubs, paths = os.path.join(ROOT, "Stubs"), [FIXTURE]
    else:
        table = route_table(int(a.table))
        stubs = os.path.join(work, "stubs")
        write_stub_tree(stubs, [(folder, route, body) for folder, route, _, body in table])
        paths = ["/api/v1" + request for _, _, request, _ in table]
        random.Random(1).shuffle(paths)
    script = spread_script(work, paths) if len(paths) > 1 else None
    servers = []
    try:
        for spec in a.binaries:
            label, _, rest = spec.partition("=")
            binary, _, libdir = rest.partition(":")
            env = dict(os.environ, LD_LIBRARY_PATH=libdir) if libdir else None
            version = subprocess.run([binary, "--version"], capture_output=True, text=True, env=env).stdout.strip()
            server = Server(label, stubd_command(binary, stubs), os.path.join(work, f"{label}.log"), ready_path=paths[0], env=env)
            servers.append((label, version, server))
        for sample in paths[:: max(1, len(paths) // 50)]:
            answers = {label: server.get(sample)[:2] for label, _, server in servers}
            if len(set(answers.values())) != 1 or next(iter(answers.values()))[0] != 200:
                raise SystemExit(f"the binaries answer {sample} differently: {answers}")
        rps = {label: [] for label, _, _ in servers}
        cpu = {label: [] for label, _, _ in servers}
        for r in range(a.rounds):
            order = servers if r % 2 == 0 else list(reversed(servers))
            for label, _, server in order:
                before = cpu_seconds(server.proc.pid)
                result = wrk(server.url(paths[0]), a.seconds, script=script)
                if result["non2xx"] or result["errors"]:
                    raise SystemExit(f"{label}: {result}")
                rps[label].append(result["rps"])
                cpu[label].append((cpu_seconds(server.proc.pid) - before) / max(1, result["requests"]) * 1e6)
        first = servers[0][0]
        print(f"table: {a.table}; {a.rounds} alternating rounds of {a.seconds} s, wrk -t1 -c50\n")
        print("| binary | libmicrohttpd | req/s (median) | ratio | server CPU µs/request | ratio |\n|---|---|---|---|---|---|")
        for label, version, _ in servers:
            r, c = statistics.median(rps[label]), statistics.median(cpu[label])
            print(f"| {label} | {version.split('libmicrohttpd ')[-1].rstrip(')')} | {r:,.0f} | {r / statistics.median(rps[first]):.3f} | "
                  f"{c:.2f} | {c / statistics.median(cpu[first]):.3f} |")
    finally:
        for _, _, server in servers:
            server.stop()


if __name__ == "__main__":
    main()
