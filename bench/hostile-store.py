#!/usr/bin/env python3
"""A fleet replica against stores that misbehave (issue 42's goals: start <= 2 s, SIGTERM <= 1 s,
plain GET p99 unchanged, health truthful), with a real redis-server measured in the same run as
the reference. Each store: start `stubd serve --state` on it, time until it serves; 200 plain
GETs, their p99; health's store status and error; SIGTERM, time until exit. Modes come from
Tests/Clients/hostile_store.py (trickle, silent, garbage, huge, array, tls-trickle), plus
`paused`: a real redis-server stopped with SIGSTOP after the replica started, then resumed;
`killed`: one killed (SIGKILL) after the replica started; `paused+seq`: paused, on one serving
thread, while four clients send requests that each need a sequence step from the store (they
wait for it suspended; the plain GETs must not wait behind them).

  bench/hostile-store.py --binary .build/release/stubd [--runs 3]
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, free_port, wait_for_port  # noqa: E402

SCRIPT = os.path.join(ROOT, "Tests/Clients/hostile_store.py")


def redis():
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    wait_for_port(port)
    return proc, port


def hostile(mode, tls):
    extra = [os.path.join(tls, "server.pem"), os.path.join(tls, "server-key.pem")] if mode == "tls-trickle" else []
    proc = subprocess.Popen([sys.executable, SCRIPT, mode] + extra, stdout=subprocess.PIPE, text=True)
    return proc, int(proc.stdout.readline())


def admin(base, method, path, body):
    request = urllib.request.Request(base + "/__stubd" + path, data=body.encode(), method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.status


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read()


def run(binary, mode, tls):
    real = mode in ("redis", "paused", "killed", "paused+seq")
    store, port = redis() if real else hostile(mode, tls)
    state = ["--state", f"rediss://localhost:{port}", "--state-ca", os.path.join(tls, "ca.pem")] if mode == "tls-trickle" \
        else ["--state", f"redis://127.0.0.1:{port}"]
    threads = ["--threads", "1"] if mode == "paused+seq" else []
    started = time.monotonic()
    daemon = subprocess.Popen([binary, "serve", "--stubs", os.path.join(ROOT, "Stubs"), "--port", "0", "--log", "off", "--no-watch"]
                              + state + threads, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = daemon.stdout.readline()
    start = time.monotonic() - started
    base = re.search(r"http://[\d.]+:\d+", line).group(0)
    done = threading.Event()
    if mode == "paused+seq":
        admin(base, "PUT", "/routes/app/users", '{"sequence": ' + json.dumps(["503", "500"] * 500) + '}')
    if mode.startswith("paused"):
        store.send_signal(signal.SIGSTOP)
    if mode == "killed":
        store.kill()
    if mode == "paused+seq":
        def sequence_client():
            while not done.is_set():
                try:
                    get(base + "/api/v1/users")
                except Exception:  # 503 and 500 are the sequence's answers
                    pass
        for _ in range(4):
            threading.Thread(target=sequence_client, daemon=True).start()
    times = []
    for _ in range(200):
        t = time.monotonic()
        status, _ = get(base + "/api/v1/users/1")
        times.append(time.monotonic() - t)
        assert status == 200
    times.sort()
    done.set()
    if mode.startswith("paused"):
        time.sleep(2.5)  # the worker's next check (every 250 ms, 2 s at most) has to find it gone
    health = json.loads(get(base + "/__stubd/health")[1])
    stopping = time.monotonic()
    daemon.terminate()
    daemon.wait(timeout=60)
    stop = time.monotonic() - stopping
    if mode.startswith("paused"):
        store.send_signal(signal.SIGCONT)
    store.kill()
    store.wait()
    s = health.get("store", {})
    return start, times[int(len(times) * 0.99) - 1] * 1000, stop, f"{health['status']}/{s.get('status')}: {s.get('error', '')}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/stubd"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'store':11} {'start s':>8} {'p99 ms':>8} {'x redis':>8} {'SIGTERM s':>9}  health")
    reference = None
    tls = tempfile.mkdtemp(prefix="stubd-bench-tls-")
    subprocess.run([args.binary, "tls", "init", "--tls-dir", tls], check=True, capture_output=True)
    for mode in ["redis", "trickle", "silent", "garbage", "huge", "array", "tls-trickle", "paused", "killed", "paused+seq"]:
        rows = [run(args.binary, mode, tls) for _ in range(args.runs)]
        start = sorted(r[0] for r in rows)[len(rows) // 2]
        p99 = sorted(r[1] for r in rows)[len(rows) // 2]
        stop = max(r[2] for r in rows)
        if reference is None:
            reference = p99
        print(f"{mode:11} {start:8.2f} {p99:8.2f} {p99 / reference:8.2f} {stop:9.2f}  {rows[-1][3][:90]}")


if __name__ == "__main__":
    main()
