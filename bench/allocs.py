#!/usr/bin/env python3
"""Heap allocations per request on stubd's request path, counted by an LD_PRELOAD library
(bench/alloc-count.c: malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign). Each
configuration runs twice: with 0 requests and with N keep-alive requests to /api/v1/users/1 sent
one by one (then SIGTERM; the library writes its totals at exit). Allocations per request are
(count_N - count_0) / N. The goal is to see what stubd allocates per request and where it grows;
the floor (bench/floor.c, a bare libmicrohttpd server) measured the same way is the reference,
and also shows that the preload sees allocations made from libmicrohttpd; a stubd count far
above it shows that it sees the Swift runtime's too (they go through libc malloc).

stubd runs with --threads 1 --log off --no-watch, journal 1000 (the default); also with the
journal off (--journal-size 0) and with --log text (stdout to a file).

usage: bench/allocs.py [--binary PATH] [--requests 20000]
Needs: gcc, pkg-config and libmicrohttpd-dev (apt-get install gcc pkg-config libmicrohttpd-dev).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Server, build_release, compile_c, pkg_config, send_requests, stubd_command  # noqa: E402

FIXTURE = "/api/v1/users/1"
KINDS = ["malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"]


def counted_run(name, cmd, preload, work, requests):
    """Totals of one process run under the preload that answered REQUESTS requests."""
    stem = os.path.join(work, "".join(c if c.isalnum() else "-" for c in name) + f"-{requests}")
    log = stem + ".allocs"
    env = dict(os.environ, LD_PRELOAD=preload, STUBD_ALLOC_LOG=log)
    # No readiness request: the port is printed once the socket listens, so the count stays exact.
    # Standard output (the access log with --log text) goes to STEM.out.
    server = Server(name, cmd, stem + ".out", env=env)
    try:
        if requests:
            ok = send_requests(server.port, FIXTURE, requests)
            assert ok == requests, f"{name}: {ok} of {requests} requests answered 200"
    finally:
        code = server.stop()
    if not os.path.exists(log):
        sys.exit(f"{name} exited with {code} without running exit handlers: no allocation totals in {log}")
    with open(log) as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


def per_request(name, cmd, preload, work, n):
    base = counted_run(name, cmd, preload, work, 0)
    loaded = counted_run(name, cmd, preload, work, n)
    per = {k: (loaded[k] - base[k]) / n for k in [*KINDS, "free", "total"]}
    detail = ", ".join(f"{k} {per[k]:.3f}" for k in KINDS if per[k])
    print(f"{name:34s} {per['total']:8.2f} allocations/request  ({detail or 'none'}; free {per['free']:.2f})  "
          f"startup+shutdown {base['total']}", flush=True)
    return per["total"]


def check_interposable(binary):
    """The binary must take malloc from libc dynamically, else the preload cannot see it."""
    out = subprocess.run(["nm", "-D", "--undefined-only", binary], capture_output=True, text=True).stdout
    if not any(line.split()[-1].startswith("malloc") for line in out.splitlines() if line.strip()):
        print(f"warning: {binary} does not import malloc dynamically; its own allocations may not be counted")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", help="stubd binary (default: swift build -c release)")
    p.add_argument("--requests", type=int, default=20000)
    a = p.parse_args()
    binary = a.binary or build_release()
    check_interposable(binary)
    work = tempfile.mkdtemp(prefix="stubd-allocs-")
    try:
        preload = compile_c("alloc-count.c", work, "-shared", "-fPIC", "-ldl")
        floor = compile_c("floor.c", work, *pkg_config("libmicrohttpd"))
        stubs = os.path.join(ROOT, "Stubs")
        fixture = os.path.join(stubs, "app", "user", "200.json")
        runs = [
            ("floor (reference)", [floor, "0", fixture, "application/json; charset=utf-8"]),
            ("stubd, journal 1000, log off", stubd_command(binary, stubs)),
            ("stubd, journal off, log off", stubd_command(binary, stubs, "--journal-size", "0")),
            ("stubd, journal 1000, log text", stubd_command(binary, stubs, log="text")),
        ]
        print(f"{a.requests} sequential keep-alive GET {FIXTURE}; (count after N - count after 0) / N")
        for name, cmd in runs:
            per_request(name, cmd, preload, work, a.requests)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
