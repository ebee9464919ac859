#!/usr/bin/env python3
"""Throughput with the request journal on (default 1000 entries) against --journal-size 0, the
reference, measured with wrk over keep-alive connections, alternating runs. Prints the median
req/s of each and the ratio (goal >= 0.9). Needs wrk (apt-get install wrk).

usage: bench/throughput.py [--runs 5] [--seconds 4] [--connections 50]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Daemon, build_release  # noqa: E402


def wrk(url, seconds, connections):
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", url], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seconds", type=int, default=4)
    p.add_argument("--connections", type=int, default=50)
    a = p.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    binary = build_release()
    results = {"journal 1000": [], "journal 0 (reference)": []}
    for run in range(a.runs):
        for name, size in (("journal 1000", "1000"), ("journal 0 (reference)", "0")):
            daemon = Daemon(binary, "--journal-size", size)
            try:
                rps = wrk(daemon.base + "/api/v1/users/1", a.seconds, a.connections)
                if size != "0":
                    count = int(re.search(rb'"count": (\d+)', daemon.get("/__stubd/requests/count")[1]).group(1))
                    assert count == 1000, f"journal should hold 1000 entries, holds {count}"
            finally:
                daemon.stop()
            results[name].append(rps)
            print(f"run {run + 1}: {name:22s} {rps:10.0f} req/s", flush=True)
    on = statistics.median(results["journal 1000"])
    off = statistics.median(results["journal 0 (reference)"])
    print()
    paired = statistics.median(x / y for x, y in zip(results["journal 1000"], results["journal 0 (reference)"]))
    print(f"median of {a.runs}: journal on {on:.0f} req/s, journal off {off:.0f} req/s, ratio of medians {on / off:.3f}, "
          f"median of per-run ratios {paired:.3f}")


if __name__ == "__main__":
    main()
