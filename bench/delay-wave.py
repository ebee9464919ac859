#!/usr/bin/env python3
"""Delay wave: N concurrent connections each ask for a D ms delay (issue: delays without a thread
per request). Reports the wave's wall time, p50/p99 of actual minus requested latency, and the
daemon's threads and RSS during the wave; then the same wave with 0 ms as the reference.

usage: bench/delay-wave.py [--connections 10000] [--delay-ms 1000] [--runs 3]
"""
import argparse
import subprocess
import json
import os
import statistics
import sys
import threading
import urllib.request
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Daemon, build_release, percentile, raise_fd_limit  # noqa: E402


def build_client():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "out")
    os.makedirs(out, exist_ok=True)
    binary = os.path.join(out, "wave")
    subprocess.run(["cc", "-O2", "-o", binary, os.path.join(here, "wave.c")], check=True)
    return binary


def wave(client, daemon, n, delay_ms):
    """Runs the C client; returns answered, wall s, and latency minus the requested delay (p50, p99, max ms)."""
    out = subprocess.run([client, daemon.host, str(daemon.port), str(n), f"/api/v1/users/1?__delay={delay_ms}", str(delay_ms)],
                         capture_output=True, text=True)
    answered, wall, p50, p99, worst = out.stdout.split()
    # The server's own view from the journal: time from reading the request to queueing the
    # response, minus the delay asked for. This leaves out the client and the kernel.
    with urllib.request.urlopen(f"{daemon.base}/__stubd/requests?limit={n}", timeout=60) as r:
        entries = json.load(r)["requests"]
    server_late = [e["elapsedMs"] - e["delayMs"] for e in entries]
    return int(answered), float(wall) / 1000, float(p50), float(p99), float(worst), server_late


def sample_stats(daemon, stop, out):
    while not stop.is_set():
        out.append(daemon.stats())
        time.sleep(0.02)


def run(binary, client, n, delay_ms):
    daemon = Daemon(binary, "--journal-size", str(n))
    samples, stop = [], threading.Event()
    sampler = threading.Thread(target=sample_stats, args=(daemon, stop, samples))
    sampler.start()
    try:
        answered, wall, p50, p99, worst, server_late = wave(client, daemon, n, delay_ms)
    finally:
        stop.set()
        sampler.join()
        daemon.stop()
    threads = max(t for t, _ in samples)
    rss = max(r for _, r in samples)
    return wall, (p50, p99, worst), answered, threads, rss, (percentile(server_late, 50), percentile(server_late, 99))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--connections", type=int, default=10000)
    p.add_argument("--delay-ms", type=int, default=1000)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    hard = raise_fd_limit()
    if a.connections + 100 > hard:
        sys.exit(f"fd hard limit {hard} is too low for {a.connections} connections")
    binary = build_release()
    client = build_client()
    rows = {}
    for delay in (a.delay_ms, 0):
        rows[delay] = [run(binary, client, a.connections, delay) for _ in range(a.runs)]
        for wall, errors, answered, threads, rss, server in rows[delay]:
            print(f"delay {delay:5d} ms: answered {answered}/{a.connections}  wall {wall:.3f} s  "
                  f"late p50 {errors[0]:6.2f} ms  p99 {errors[1]:6.2f} ms  max {errors[2]:7.2f} ms  "
                  f"server-side late p50 {server[0]:.2f} p99 {server[1]:.2f} ms  threads {threads}  rss {rss:.0f} MB", flush=True)
    med = lambda d, i: statistics.median(r[i] for r in rows[d])  # noqa: E731
    d = a.delay_ms
    print()
    print(f"median of {a.runs} runs, {a.connections} connections:")
    print(f"  {d} ms wave: wall {med(d, 0):.3f} s (ratio to requested {med(d, 0) * 1000 / d:.3f}), "
          f"actual-requested p50 {statistics.median(r[1][0] for r in rows[d]):.2f} ms, "
          f"p99 {statistics.median(r[1][1] for r in rows[d]):.2f} ms, "
          f"threads {max(r[3] for r in rows[d])}, rss {med(d, 4):.0f} MB")
    print(f"  server-side (journal: queued minus arrival minus delay): p50 {statistics.median(r[5][0] for r in rows[d]):.2f} ms, "
          f"p99 {statistics.median(r[5][1] for r in rows[d]):.2f} ms")
    print(f"  0 ms wave (reference): wall {med(0, 0):.3f} s, latency p50 {statistics.median(r[1][0] for r in rows[0]):.2f} ms, "
          f"p99 {statistics.median(r[1][1] for r in rows[0]):.2f} ms, threads {max(r[3] for r in rows[0])}, rss {med(0, 4):.0f} MB")
    print(f"  delay machinery cost: {d} ms wave wall minus requested = {(med(d, 0) * 1000 - d):.0f} ms "
          f"vs 0 ms wave wall {med(0, 0) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
