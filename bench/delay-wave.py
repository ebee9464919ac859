#!/usr/bin/env python3
"""Delay wave: N concurrent connections each ask for a D ms delay (delays must not cost a thread
per request). Reports the wave's wall time, p50/p99 of actual minus requested latency as the
client sees it and as the server's journal records it, and the daemon's threads and RSS during
the wave. The same wave with 0 ms delay, measured in the same run, is the reference.

Two client behaviours are measured: `keep` holds each connection open after its response until
the wave is over, as URLSession's connection pool does; `close` closes each connection as soon
as its response arrived, which adds the server's connection teardown to the reply burst.

usage: bench/delay-wave.py [--connections 10000] [--delay-ms 1000] [--runs 3] [--binary PATH]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Daemon, build_release, percentile, raise_fd_limit  # noqa: E402


def build_client():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "out")
    os.makedirs(out, exist_ok=True)
    binary = os.path.join(out, "wave")
    subprocess.run(["cc", "-O2", "-o", binary, os.path.join(here, "wave.c")], check=True)
    return binary


def sample_stats(daemon, stop, out):
    while not stop.is_set():
        out.append(daemon.stats())
        time.sleep(0.02)


def run(binary, client, n, delay_ms, mode):
    """One wave against a fresh daemon; returns a dict of results."""
    daemon = Daemon(binary, "--journal-size", str(n))
    samples, stop = [], threading.Event()
    sampler = threading.Thread(target=sample_stats, args=(daemon, stop, samples))
    sampler.start()
    try:
        env = dict(os.environ, CLOSE_EACH="1" if mode == "close" else "0")
        out = subprocess.run([client, daemon.host, str(daemon.port), str(n), f"/api/v1/users/1?__delay={delay_ms}", str(delay_ms)],
                             capture_output=True, text=True, env=env)
        answered, wall, p50, p99, worst = out.stdout.split()
        # The server's own view: from reading the request to queueing the response, minus the
        # delay asked for. This leaves out the client and the kernel.
        with urllib.request.urlopen(f"{daemon.base}/__stubd/requests?limit={n}", timeout=60) as r:
            late = [e["elapsedMs"] - e["delayMs"] for e in json.load(r)["requests"]]
    finally:
        stop.set()
        sampler.join()
        daemon.stop()
    return {"answered": int(answered), "wall": float(wall) / 1000, "p50": float(p50), "p99": float(p99), "max": float(worst),
            "server_p50": percentile(late, 50), "server_p99": percentile(late, 99),
            "threads": max(t for t, _ in samples), "rss": max(r for _, r in samples)}


def same_bytes(binary, delay_ms):
    """The reference (the 0 ms wave) must answer what the delayed wave answers, status and body."""
    daemon = Daemon(binary)
    try:
        delayed = daemon.get(f"/api/v1/users/1?__delay={delay_ms}")
        reference = daemon.get("/api/v1/users/1?__delay=0")
    finally:
        daemon.stop()
    if delayed != reference:
        sys.exit(f"the 0 ms reference answers other bytes than the {delay_ms} ms wave: {reference[:1]} vs {delayed[:1]}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--connections", type=int, default=10000)
    p.add_argument("--delay-ms", type=int, default=1000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--binary", help="stubd binary (default: swift build -c release)")
    a = p.parse_args()
    hard = raise_fd_limit()
    if a.connections + 100 > hard:
        sys.exit(f"fd hard limit {hard} is too low for {a.connections} connections")
    binary = a.binary or build_release()
    client = build_client()
    same_bytes(binary, a.delay_ms)
    cases = [(a.delay_ms, "keep"), (a.delay_ms, "close"), (0, "keep")]
    rows = {case: [] for case in cases}
    for _ in range(a.runs):
        for case in cases:
            r = run(binary, client, a.connections, *case)
            rows[case].append(r)
            print(f"delay {case[0]:5d} ms, {case[1]:5s}: answered {r['answered']}/{a.connections}  wall {r['wall']:.3f} s  "
                  f"late p50 {r['p50']:6.2f} p99 {r['p99']:6.2f} max {r['max']:6.2f} ms  "
                  f"server-side p50 {r['server_p50']:.2f} p99 {r['server_p99']:.2f} ms  threads {r['threads']}  rss {r['rss']:.0f} MB",
                  flush=True)
    print()
    print(f"median of {a.runs} runs, {a.connections} connections:")
    reference = statistics.median(r["wall"] for r in rows[(0, "keep")])
    for case in cases:
        m = lambda k: statistics.median(r[k] for r in rows[case])  # noqa: E731
        label = f"{case[0]} ms wave, {case[1]}" + (" (reference)" if case[0] == 0 else "")
        print(f"  {label:28s} wall {m('wall'):.3f} s, actual-requested p50 {m('p50'):.2f} ms p99 {m('p99'):.2f} ms, "
              f"server-side p50 {m('server_p50'):.2f} ms p99 {m('server_p99'):.2f} ms, "
              f"threads {max(r['threads'] for r in rows[case])}, rss {m('rss'):.0f} MB")
    keep = statistics.median(r["wall"] for r in rows[(a.delay_ms, "keep")])
    print(f"  delay machinery: {a.delay_ms} ms wave wall minus requested {(keep * 1000 - a.delay_ms):.0f} ms "
          f"against the 0 ms wave's wall {reference * 1000:.0f} ms (ratio {(keep * 1000 - a.delay_ms) / (reference * 1000):.2f})")


if __name__ == "__main__":
    main()
