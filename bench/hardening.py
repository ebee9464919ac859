#!/usr/bin/env python3
"""Hardening figures, before and after, measured in the same run: two stubd binaries (`--before`,
an older build, and `--after`, default: this checkout's release build) go through the same three
attacks from issue 9, and each row prints both results.

1. Link loops: a copy of Stubs/ with three hidden self-links (`ln -s . .self0`). Time until the
   daemon prints its serving line (10 s cap) and its RSS then; then three more links added while
   serving plus an edit, the time until the edit is served; then the time SIGTERM takes.
2. Slow clients: the daemon under a 1,024 open-file limit, 1,000 clients sending a request line
   and then one byte a second; meanwhile a normal request every 0.5 s for 20 s (3 s timeout each).
   Counts of answered, refused (failed at once) and timed-out requests, and when the first
   normal request was answered.
3. Delayed uploads: 300 concurrent 1 MiB POSTs with a 1,000 ms delay; peak RSS during the wave
   and RSS 2 s after it.

Before timing, both binaries must answer GET /api/v1/users/1 with the same bytes.

usage: bench/hardening.py --before PATH [--after PATH] [--only links|slow|uploads]
"""
import argparse
import os
import re
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_release, raise_fd_limit, rss_mb, sigterm  # noqa: E402


def start(binary, stubs, preexec=None, extra=()):
    """Starts `stubd serve`; returns (process, base URL or None, seconds until the serving line)."""
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--log", "off", "--stubs", stubs, *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=preexec)
    began = time.monotonic()
    ready, _, _ = select.select([proc.stdout], [], [], 10)
    if not ready:
        return proc, None, None
    m = re.search(r"(http://[\d.]+:\d+)", proc.stdout.readline())
    return proc, (m.group(1) if m else None), time.monotonic() - began


def stop(proc, cap=10):
    return sigterm(proc, cap)


def fetch(url, timeout=3, data=None):
    with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=timeout) as r:
        return r.read()


def same_bytes(before, after):
    answers = []
    for binary in (before, after):
        proc, base, _ = start(binary, os.path.join(ROOT, "Stubs"))
        answers.append(fetch(base + "/api/v1/users/1"))
        stop(proc)
    if answers[0] != answers[1]:
        sys.exit("the two binaries answer GET /api/v1/users/1 differently; not comparing them")


def links(binary):
    tmp = tempfile.mkdtemp(prefix="stubd-links-")
    stubs = os.path.join(tmp, "Stubs")
    shutil.copytree(os.path.join(ROOT, "Stubs"), stubs, symlinks=True)
    for i in range(3):
        os.symlink(".", os.path.join(stubs, f".self{i}"))
    proc, base, ready = start(binary, stubs)
    row = {"ready": ready, "rss": rss_mb(proc.pid), "reload": None, "sigterm": None}
    if base:
        for i in range(3):
            os.symlink("..", os.path.join(stubs, "app", f".up{i}"))
        body = os.path.join(stubs, "app", "user", "200.json")
        with open(body, "w") as f:
            f.write('{"edited": true}\n')
        began = time.monotonic()
        while time.monotonic() - began < 10:
            try:
                if b"edited" in fetch(base + "/api/v1/users/1", timeout=1):
                    row["reload"] = time.monotonic() - began
                    break
            except OSError:
                pass
            time.sleep(0.05)
        row["rss_after"] = rss_mb(proc.pid)
    row["sigterm"] = stop(proc)
    shutil.rmtree(tmp, ignore_errors=True)
    return row


def limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def slow(binary):
    proc, base, _ = start(binary, os.path.join(ROOT, "Stubs"), preexec=limit_files)
    host, port = base.replace("http://", "").split(":")
    clients = []
    for _ in range(1000):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect((host, int(port)))
        except BlockingIOError:
            pass
        clients.append(s)
    time.sleep(0.5)
    for s in clients:
        try:
            s.send(b"GET /api/v1/users HTTP/1.1\r\n")
        except OSError:
            pass
    done = threading.Event()

    def drip():
        while not done.wait(1):
            for s in clients:
                try:
                    s.send(b"X")
                except OSError:
                    pass
    dripper = threading.Thread(target=drip)
    dripper.start()
    outcomes, first_ok, began = {"ok": 0, "refused": 0, "timeout": 0}, None, time.monotonic()
    while time.monotonic() - began < 20:
        t = time.monotonic()
        try:
            fetch(base + "/api/v1/users/1", timeout=3)
            outcomes["ok"] += 1
            first_ok = first_ok if first_ok is not None else t - began
        except OSError as e:
            outcomes["timeout" if "timed out" in str(e) else "refused"] += 1
        time.sleep(max(0, 0.5 - (time.monotonic() - t)))
    done.set()
    dripper.join()
    for s in clients:
        s.close()
    stop(proc)
    return {**outcomes, "first_ok": first_ok}


def uploads(binary):
    proc, base, _ = start(binary, os.path.join(ROOT, "Stubs"))
    body = b'{"channel": "C1", "text": "' + b"x" * (1 << 20) + b'"}'
    peak, stop_sampling = [0.0], threading.Event()

    def sample():
        while not stop_sampling.is_set():
            peak[0] = max(peak[0], rss_mb(proc.pid))
            time.sleep(0.02)
    sampler = threading.Thread(target=sample)
    sampler.start()
    errors = []

    def post():
        try:
            fetch(base + "/api/chat.postMessage?__delay=1000", timeout=60, data=body)
        except OSError as e:
            errors.append(e)
    threads = [threading.Thread(target=post) for _ in range(300)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(2)
    stop_sampling.set()
    sampler.join()
    row = {"peak": peak[0], "after": rss_mb(proc.pid), "errors": len(errors)}
    stop(proc)
    return row


def fmt(v, unit=""):
    return "—" if v is None else (f"{v:.2f}{unit}" if isinstance(v, float) else f"{v}{unit}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--before", required=True)
    p.add_argument("--after")
    p.add_argument("--only", choices=["links", "slow", "uploads"])
    a = p.parse_args()
    raise_fd_limit()
    after = a.after or build_release()
    same_bytes(a.before, after)
    if a.only in (None, "links"):
        rows = [links(b) for b in (a.before, after)]
        print("1. link loops (3 hidden self-links; 3 more added while serving)")
        print(f"   {'':8} {'ready s':>8} {'RSS MB':>8} {'reload s':>9} {'RSS MB':>8} {'SIGTERM s':>10}")
        for name, r in zip(("before", "after"), rows):
            print(f"   {name:8} {fmt(r['ready']):>8} {fmt(r['rss']):>8} {fmt(r['reload']):>9} {fmt(r.get('rss_after')):>8} {fmt(r['sigterm']):>10}")
    if a.only in (None, "slow"):
        rows = [slow(b) for b in (a.before, after)]
        print("2. 1,000 one-byte-per-second clients under a 1,024 file limit; a request every 0.5 s for 20 s")
        print(f"   {'':8} {'answered':>9} {'refused':>8} {'timed out':>10} {'first answer s':>15}")
        for name, r in zip(("before", "after"), rows):
            print(f"   {name:8} {r['ok']:>9} {r['refused']:>8} {r['timeout']:>10} {fmt(r['first_ok']):>15}")
    if a.only in (None, "uploads"):
        rows = [uploads(b) for b in (a.before, after)]
        print("3. 300 concurrent 1 MiB uploads, each delayed 1,000 ms")
        print(f"   {'':8} {'peak RSS MB':>12} {'RSS 2 s after':>14} {'errors':>7}")
        for name, r in zip(("before", "after"), rows):
            print(f"   {name:8} {fmt(r['peak']):>12} {fmt(r['after']):>14} {r['errors']:>7}")
        print(f"   RSS after, after/before: {rows[1]['after'] / rows[0]['after']:.2f}")


if __name__ == "__main__":
    main()
