#!/usr/bin/env python3
"""Blocking on a serving thread (issue 55, item 11): the p99 of plain GETs, one after another on
fresh connections, while other clients hold the server's threads' attention, against two stubd
binaries in the same run (`--before`, an older build, and `--after`, default: this checkout's
release build), each with `--threads 1` so that anything that blocks a serving thread shows.

  quiet     nothing else (the reference each ratio is taken against)
  idle      1,000 idle keep-alive connections, each having made one request
  truncate  50 clients that ask for a 24 MiB body with `__fault=truncate` and read nothing,
            arriving one every 40 ms while the GETs are timed
  throttle  the same with `__throttle=65536` instead of the fault

Each row: p50 and p99 of the GETs sent over 2.5 s (1 s timeout each; a timeout counts as 1 s),
their count, and p99 / quiet p99. Before timing, both binaries must answer GET /api/v1/users/1 with the same bytes.

usage: bench/slow-readers.py --before PATH [--after PATH]
"""
import argparse
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_release, percentile, raise_fd_limit, sigterm  # noqa: E402


def stubs():
    folder = tempfile.mkdtemp(prefix="stubd-slow-readers-")
    shutil.copytree(os.path.join(ROOT, "Stubs"), os.path.join(folder, "Stubs"))
    big = os.path.join(folder, "Stubs", "app", "big")
    os.makedirs(big)
    with open(os.path.join(big, "route.json"), "w") as f:
        f.write('{"method": "GET", "path": "/big"}')
    with open(os.path.join(big, "200.json"), "w") as f:
        f.write("[" + "1234567," * ((24 << 20) // 8 - 1) + "1234567]")
    return os.path.join(folder, "Stubs")


def start(binary, folder):
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--log", "off", "--no-watch", "--threads", "1",
                             "--stubs", folder], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    line = proc.stdout.readline() if ready else ""
    m = re.search(r"127\.0\.0\.1:(\d+)", line)
    if not m:
        proc.kill()
        raise RuntimeError(f"{binary} did not start: {line}")
    return proc, int(m.group(1))


def get(port, path="/api/v1/users/1", timeout=1.0):
    began = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return time.perf_counter() - began, data
    except OSError:
        return timeout, b""


def timings(port, seconds=2.5):
    times, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        times.append(get(port)[0])
    return percentile(times, 50), percentile(times, 99), len(times)


def load(kind, port):
    """Opens the clients of `kind`; returns them (closed by the caller)."""
    clients = []
    if kind == "idle":
        for _ in range(1000):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/v1/users/1 HTTP/1.1\r\nHost: a\r\n\r\n")
            clients.append(s)
        for s in clients:
            s.settimeout(5)
            s.recv(65536)
    elif kind in ("truncate", "throttle"):
        query = "__fault=truncate" if kind == "truncate" else "__throttle=65536"

        def arrive():
            for _ in range(50):
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.connect(("127.0.0.1", port))
                s.sendall(f"GET /api/v1/big?{query} HTTP/1.1\r\nHost: a\r\n\r\n".encode())
                clients.append(s)
                time.sleep(0.04)
        threading.Thread(target=arrive, daemon=True).start()
    return clients


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after")
    args = parser.parse_args()
    raise_fd_limit()
    after = args.after or build_release()
    folder = stubs()
    answers = []
    for binary in (args.before, after):
        proc, port = start(binary, folder)
        answers.append(get(port, timeout=5)[1].split(b"\r\n\r\n", 1)[-1])
        sigterm(proc)
    if answers[0] != answers[1] or not answers[0]:
        sys.exit("the two binaries answer GET /api/v1/users/1 differently; not comparing them")
    print("| load | binary | GETs | p50 | p99 | p99 / quiet p99 |")
    print("|---|---|---|---|---|---|")
    for label, binary in (("before", args.before), ("after", after)):
        quiet = None
        for kind in ("quiet", "idle", "truncate", "throttle"):
            proc, port = start(binary, folder)
            clients = load(kind, port)
            p50, p99, count = timings(port)
            quiet = quiet or p99
            print(f"| {kind} | {label} | {count} | {p50 * 1000:.2f} ms | {p99 * 1000:.2f} ms | {p99 / quiet:.2f} |", flush=True)
            for s in list(clients):
                s.close()
            sigterm(proc, 30)


if __name__ == "__main__":
    main()
