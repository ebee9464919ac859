#!/usr/bin/env python3
"""`GET /__stubd/journal/pact` over a full journal: 10,000 requests to 10,000 distinct paths
(`/api/v1/users/{id}`, each id once, so each is an interaction of its own), then the export
timed three times and the bytes of every run compared (the same journal must give the same
file). A second journal of 10,000 requests to one path shows what folding repeats costs.

usage: bench/pact-export.py [--binary PATH] [--requests N]
"""
import argparse
import hashlib
import http.client
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Server, median, stubd_command  # noqa: E402


def export(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    conn.request("GET", "/__stubd/journal/pact?consumer=App&provider=API")
    response = conn.getresponse()
    body = response.read()
    seconds = time.perf_counter() - start
    conn.close()
    assert response.status == 200, body[:300]
    return seconds, body


def fill(port, paths):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for path in paths:
        conn.request("GET", path)
        conn.getresponse().read()
    conn.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", default=os.path.join(ROOT, ".build/release/stubd"))
    p.add_argument("--requests", type=int, default=10_000)
    a = p.parse_args()
    for label, paths in (("distinct paths", [f"/api/v1/users/{i}" for i in range(a.requests)]),
                         ("one path repeated", ["/api/v1/users/1"] * a.requests)):
        server = Server("stubd", stubd_command(a.binary, os.path.join(ROOT, "Stubs"), "--journal-size", str(a.requests)),
                        f"/tmp/stubd-pact-export-{os.getpid()}.out", ready_path="/__stubd/health")
        try:
            fill(server.port, paths)
            runs = [export(server.port) for _ in range(3)]
        finally:
            server.stop()
        digests = {hashlib.sha256(body).hexdigest() for _, body in runs}
        interactions = len(json.loads(runs[0][1])["interactions"])
        print(f"{label}: {a.requests} journal entries, {interactions} interactions, {len(runs[0][1]) / 1e6:.1f} MB; "
              f"export median {median([s for s, _ in runs]):.3f} s (runs {', '.join(f'{s:.3f}' for s, _ in runs)}); "
              f"{'the same bytes every run' if len(digests) == 1 else 'DIFFERENT BYTES'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
