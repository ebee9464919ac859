#!/usr/bin/env python3
"""What the largest head served (--connection-memory) costs per request: libmicrohttpd gives each
connection a memory pool of that size and zeroes all of it before every request, so a larger
limit is paid on every keep-alive request, served or not, and in memory per busy connection.

Each size runs as its own stubd (one polling thread, like bench/request-path.py); rounds alternate
between them, wrk -t1 -c50 on the small fixture. Reported: the median throughput and server CPU
per request of each size as a ratio to the first size, and the RSS with CONNS connections that
have each made two requests (the second request is the one that zeroes the pool).

usage: bench/head-memory.py [--binary PATH] [--sizes 6144,8192,65536] [--rounds N] [--seconds S] [--conns N]
Run it once per libmicrohttpd build (LD_LIBRARY_PATH picks the library for the binary).
"""
import argparse
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Server, cpu_seconds, median, raise_fd_limit, rss_mb, stubd_command, wrk  # noqa: E402

FIXTURE = "/api/v1/users/1"


def rss_with_connections(server, count):
    """RSS after COUNT connections each made two keep-alive requests and stay open."""
    request = f"GET {FIXTURE} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    sockets = []
    try:
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", server.port))
            sockets.append(s)
        for _ in range(2):
            for s in sockets:
                s.sendall(request)
            for s in sockets:
                got = b""
                while b"\r\n\r\n" not in got or not got.rstrip().endswith(b"}"):
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    got += chunk
        return rss_mb(server.proc.pid)
    finally:
        for s in sockets:
            s.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "stubd"))
    p.add_argument("--sizes", default="6144,8192,16384,65536")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=int, default=3)
    p.add_argument("--conns", type=int, default=2000)
    a = p.parse_args()
    raise_fd_limit()
    sizes = [int(s) for s in a.sizes.split(",")]
    version = subprocess.run([a.binary, "--version"], capture_output=True, text=True).stdout.strip()
    servers = {}
    try:
        for size in sizes:
            servers[size] = Server(f"stubd-{size}", stubd_command(a.binary, os.path.join(ROOT, "Stubs"), "--connection-memory", str(size)),
                                   f"/tmp/head-memory-{size}.log", ready_path=FIXTURE)
        bodies = {size: s.get(FIXTURE)[:2] for size, s in servers.items()}
        if len(set(map(repr, bodies.values()))) != 1:
            raise SystemExit(f"the servers answer different bytes: {bodies}")
        rps, cpu = {s: [] for s in sizes}, {s: [] for s in sizes}
        for r in range(a.rounds):
            order = sizes if r % 2 == 0 else list(reversed(sizes))
            for size in order:
                server = servers[size]
                before = cpu_seconds(server.proc.pid)
                result = wrk(f"http://127.0.0.1:{server.port}{FIXTURE}", a.seconds)
                used = cpu_seconds(server.proc.pid) - before
                rps[size].append(result["rps"])
                cpu[size].append(used / max(1, result["requests"]) * 1e6)
        base = sizes[0]
        print(f"# {version}; {a.rounds} rounds of {a.seconds} s, wrk -t1 -c50\n")
        print(f"| --connection-memory | req/s (median) | ratio | server CPU µs/request | ratio | RSS MB with {a.conns} connections |")
        print("|---|---|---|---|---|---|")
        for size in sizes:
            rss = rss_with_connections(servers[size], a.conns)
            print(f"| {size} | {median(rps[size]):,.0f} | {median(rps[size]) / median(rps[base]):.3f} | {median(cpu[size]):.2f} | "
                  f"{median(cpu[size]) / median(cpu[base]):.3f} | {rss:.0f} |")
    finally:
        for s in servers.values():
            s.stop()


if __name__ == "__main__":
    main()
