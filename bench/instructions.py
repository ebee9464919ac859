#!/usr/bin/env python3
"""Instructions per request of stubd builds, counted by valgrind's callgrind: a measure that does
not move with the machine's noise, for changes too small for bench/paired.py's timings to resolve
(a few percent). It counts instructions only: what a prefetch or a cache-line layout buys (waits
for memory) does not show here, and needs paired timings; --cache-sim adds callgrind's simulated
first-level data and last-level misses per request, a hint (the simulated caches are not this
machine's) at whether such a form could matter.

Each build runs under callgrind with --threads 1 --log off --no-watch and the journal on. After a
warm-up longer than the journal (so that every measured request also drops an entry), the
counters are zeroed, N requests are sent over one keep-alive connection, and the counters dumped:
everything the process ran (all threads, libmicrohttpd and libc included) over N.

Cases: small (the shipped /api/v1/users/1) and table (a 10,000-route table, the routes in a
shuffled order). Every answer is checked to be the route's body.

usage: bench/instructions.py BINARY [BINARY...] [--requests N] [--cases small,table] [--keep DIR] [--stubs DIR] [--cache-sim]
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


def count(binary, stubs, paths, bodies, requests, work, keep=None, warmup=1500, cache_sim=False):
    """{event: count per request}: Ir, and with CACHE_SIM D1 (first-level data misses) and LL
    (last-level misses, instructions and data)."""
    out = os.path.join(work, "callgrind.out")
    for old in glob.glob(out + "*"):
        os.remove(old)
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", *(["--cache-sim=yes"] if cache_sim else []),
           *stubd_command(binary, stubs)]
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
    text = open(dumps[0]).read()
    names = re.search(r"^events:\s+(.+)$", text, re.M).group(1).split()
    counts = [int(c) for c in re.search(r"^(?:summary|totals):\s+(.+)$", text, re.M).group(1).split()]
    # Callgrind leaves trailing zero counts out.
    totals = dict(zip(names, counts + [0] * (len(names) - len(counts))))
    result = {"Ir": totals["Ir"] / requests}
    if cache_sim:
        result["D1"] = (totals["D1mr"] + totals["D1mw"]) / requests
        result["LL"] = (totals["ILmr"] + totals["DLmr"] + totals["DLmw"]) / requests
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("binaries", nargs="+")
    p.add_argument("--requests", type=int, default=3000)
    p.add_argument("--cases", default="small,table")
    p.add_argument("--stubs", default=os.path.join(ROOT, "Stubs"),
                   help="the small case's stub folder (default: the shipped Stubs; an older build may need its own)")
    p.add_argument("--keep", help="copy each build's dump into this folder (for callgrind_annotate)")
    p.add_argument("--cache-sim", action="store_true", help="also count simulated cache misses per request")
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
                results[(case, binary)] = count(binary, stubs, paths, bodies, a.requests, work, keep=a.keep and os.path.join(a.keep, case),
                                                cache_sim=a.cache_sim)
                print(f"  {case:5s} {binary}: {results[(case, binary)]['Ir']:.0f} instructions per request", flush=True)
    first = a.binaries[0]
    events = ["Ir", "D1", "LL"] if a.cache_sim else ["Ir"]
    label = {"Ir": "instr/req", "D1": "D1 miss/req", "LL": "LL miss/req"}
    print(f"\n{'case':5s} {'build':40s} " + " ".join(f"{label[e]:>11s} {'vs first':>8s}" for e in events))
    for (case, binary), value in results.items():
        first_value = results[(case, first)]
        print(f"{case:5s} {binary[-40:]:40s} " + " ".join(f"{value[e]:11.1f} {value[e] / max(first_value[e], 1e-9):8.3f}" for e in events))


if __name__ == "__main__":
    main()
