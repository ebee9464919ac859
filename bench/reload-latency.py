#!/usr/bin/env python3
"""Time from saving a stub file to the new response being served, over 20 edits (goal: median
<= 250 ms). Edits are written the way editors save: a temporary file renamed over the original.
The reference, measured in the same run, is the same edit followed by POST /__stubd/reload
instead of waiting for the watcher: the difference is what the watcher's debounce costs.

usage: bench/reload-latency.py [--edits 20]
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Daemon, build_release  # noqa: E402


def save(path, marker):
    body = {"data": {"id": 1, "name": marker}, "error": None}
    tmp = path + ".tmp~"
    with open(tmp, "w") as f:
        json.dump(body, f)
    os.rename(tmp, path)


def wait_for(daemon, marker, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker.encode() in daemon.get("/api/v1/users/1")[1]:
            return True
        time.sleep(0.002)
    return False


def measure(daemon, path, edits, explicit):
    times = []
    for i in range(edits):
        marker = f"edit-{'explicit' if explicit else 'watch'}-{i}-{time.monotonic_ns()}"
        start = time.monotonic()
        save(path, marker)
        if explicit:
            urllib.request.urlopen(urllib.request.Request(daemon.base + "/__stubd/reload", method="POST"), timeout=10).read()
        if not wait_for(daemon, marker):
            sys.exit(f"edit {i} was not served within 5 s")
        times.append((time.monotonic() - start) * 1000)
        time.sleep(0.1)
    return times


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--edits", type=int, default=20)
    a = p.parse_args()
    binary = build_release()
    work = tempfile.mkdtemp(prefix="stubd-reload-")
    stubs = os.path.join(work, "Stubs")
    shutil.copytree(os.path.join(ROOT, "Stubs"), stubs)
    path = os.path.join(stubs, "app", "user", "200.json")
    try:
        watching = Daemon(binary, stubs=stubs)
        try:
            watched = measure(watching, path, a.edits, explicit=False)
        finally:
            watching.stop()
        manual = Daemon(binary, "--no-watch", stubs=stubs)
        try:
            explicit = measure(manual, path, a.edits, explicit=True)
        finally:
            manual.stop()
    finally:
        shutil.rmtree(work)
    w, e = statistics.median(watched), statistics.median(explicit)
    print(f"watcher:  median {w:6.1f} ms  max {max(watched):6.1f} ms over {a.edits} edits")
    print(f"explicit POST /__stubd/reload (reference): median {e:6.1f} ms  max {max(explicit):6.1f} ms")
    print(f"watcher / explicit {w / e:.2f}; median against the 250 ms goal {w / 250:.2f}")


if __name__ == "__main__":
    main()
