#!/usr/bin/env python3
"""Four clients sending 16 MB GraphQL documents (`query GetUser { a { a { … } } }`, under the
default --max-body) at a GraphQL endpoint while a probe sends a plain GET every 0.1 s with a 1 s
timeout (issue 42's goal: >= 95 % of probes within 1 s). The same probes with no flood, in the
same run, are the reference. Before timing, the flood's document is checked to get the answer
the binary gives it (printed), and the probe's route to answer 200.

  bench/graphql-flood.py --binary .build/release/stubd [--seconds 20]
"""
import argparse
import http.client
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Daemon  # noqa: E402

DEPTH = 2_730_000  # "a { " and " }", 6 bytes per level: about 16.4 MB


def document():
    return ('{"query": "query GetUser { ' + "a { " * DEPTH + "id" + " }" * DEPTH + ' }"}').encode()


def post(host, port, body):
    c = http.client.HTTPConnection(host, port, timeout=60)
    c.request("POST", "/graphql", body=body, headers={"Content-Type": "application/json"})
    r = c.getresponse()
    out = (r.status, r.read()[:160])
    c.close()
    return out


def probes(daemon, seconds):
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic()
        try:
            c = http.client.HTTPConnection(daemon.host, daemon.port, timeout=1)
            c.request("GET", "/api/v1/users/1")
            ok = c.getresponse().status == 200
            c.close()
        except OSError:
            ok = False
        times.append(time.monotonic() - t if ok else 99)
        time.sleep(max(0, 0.1 - (time.monotonic() - t)))
    return times


def summary(times):
    times = sorted(times)
    within = sum(1 for t in times if t <= 1) / len(times)
    return within, times[int(len(times) * 0.99) - 1] * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/stubd")
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    daemon = Daemon(args.binary)
    body = document()
    print(f"document: {len(body) / 1e6:.1f} MB; answer: {post(daemon.host, daemon.port, body)}")
    base = summary(probes(daemon, args.seconds / 2))
    stop = threading.Event()
    sent = [0]

    def flood():
        while not stop.is_set():
            try:
                post(daemon.host, daemon.port, body)
                sent[0] += 1
            except OSError:
                pass
    threads = [threading.Thread(target=flood, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    loaded = summary(probes(daemon, args.seconds))
    stop.set()
    for t in threads:
        t.join(timeout=60)
    daemon.stop()
    print(f"{'':10} {'within 1 s':>10} {'p99 ms':>8}")
    print(f"{'no flood':10} {base[0] * 100:9.1f}% {base[1]:8.1f}")
    print(f"{'flood':10} {loaded[0] * 100:9.1f}% {loaded[1]:8.1f}   ({sent[0]} documents sent; p99 {loaded[1] / base[1]:.1f}x the reference)")


if __name__ == "__main__":
    main()
