#!/usr/bin/env python3
"""Instructions per request of stubd builds, counted by valgrind's callgrind: a measure that does
not move with the machine's noise, for changes too small for bench/paired.py's timings to resolve
(a few percent). It counts instructions only: what a prefetch or a cache-line layout buys (waits
for memory) does not show here, and needs paired timings.

Each build runs under callgrind with --threads 1 --log off --no-watch and the journal on. After a
warm-up longer than the journal (so that every measured request also drops an entry), the
counters are zeroed, N requests are sent over one keep-alive connection, and the counters dumped:
everything the process ran (all threads, libmicrohttpd and libc included) over N.

Cases: small (the shipped /api/v1/users/1) and table (a 10,000-route table, the routes in a
shuffled order). Every answer is checked to be the route's body.

usage: bench/instructions.py BINARY [BINARY...] [--requests N] [--cases small,table] [--keep DIR] [--stubs DIR]
"""
import argparse
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, KeepAlive, Server, route_table, stubd_command, write_stub_tree  # noqa: E402

FIXTURE = "/api/v1/users/1"


def count(binary, stubs, paths, bodies, requests, work, keep=None, warmup=1500):
    out = os.path.join(work, "callgrind.out")
    for old in glob.glob(out + "*"):
        os.remove(old)
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", *stubd_command(binary, stubs)]
    server = Server("stubd", cmd, os.path.join(work, "vg.log"), ready_path=paths[0], timeout=120)
    try:
        conn = KeepAlive(server.port)

        def send(n, offset):
            for i in range(n):
                k = (offset + i) % len(paths)
                status, body, _ = conn.request(paths[k])
                if status != 200 or body != bodies[k]:
                    sys.exit(f"{paths[k]} answered {status} with {len(body)} bytes, not its route's body")
        send(warmup, 0)
        subprocess.run(["callgrind_control", "-z", str(server.pid)], check=True, capture_output=True)
        send(requests, warmup)
        subprocess.run(["callgrind_control", "-d", str(server.pid)], check=True, capture_output=True)
    finally:
        server.stop()
    # The dump asked for (`-d`) is the first part, out.PID.1; the one at exit (startup and
    # shutdown) is left out.
    dumps = glob.glob(out + ".*.1")
    if len(dumps) != 1:
        sys.exit(f"expected one callgrind dump, found {dumps}")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(dumps[0], os.path.join(keep, f"callgrind.{os.path.basename(binary)}"))
    m = re.search(r"^(?:summary|totals):\s+(\d+)", open(dumps[0]).read(), re.M)
    total = int(m.group(1))
    return total / requests


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("binaries", nargs="+")
    p.add_argument("--requests", type=int, default=3000)
    p.add_argument("--cases", default="small,table")
    p.add_argument("--stubs", default=os.path.join(ROOT, "Stubs"),
                   help="the small case's stub folder (default: the shipped Stubs; an older build may need its own)")
    p.add_argument("--keep", help="copy each build's dump into this folder (for callgrind_annotate)")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as work:
        cases = {}
        if "small" in a.cases:
            stubs = a.stubs
            cases["small"] = (stubs, [FIXTURE], [open(os.path.join(stubs, "app", "user", "200.json"), "rb").read()])
        if "table" in a.cases:
            table = route_table(10_000)
            random.Random(1).shuffle(table)
            stubs = write_stub_tree(os.path.join(work, "table"), [(f, r, b) for f, r, _, b in table])
            cases["table"] = (stubs, ["/api/v1" + path for _, _, path, _ in table], [b for _, _, _, b in table])
        results = {}
        for case, (stubs, paths, bodies) in cases.items():
            for binary in a.binaries:
                results[(case, binary)] = count(binary, stubs, paths, bodies, a.requests, work, keep=a.keep and os.path.join(a.keep, case))
                print(f"  {case:5s} {binary}: {results[(case, binary)]:.0f} instructions per request", flush=True)
    first = a.binaries[0]
    print(f"\n{'case':5s} {'build':40s} {'instr/req':>10s} {'vs first':>8s}")
    for (case, binary), value in results.items():
        print(f"{case:5s} {binary[-40:]:40s} {value:10.0f} {value / results[(case, first)]:8.3f}")


if __name__ == "__main__":
    main()
