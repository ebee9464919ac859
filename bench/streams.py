#!/usr/bin/env python3
"""Streams: N concurrent server-sent event streams of E events, INTERVAL ms apart (waits between
events must not cost a thread per stream). Reports, for stubd and for a reference server measured
in the same run: streams completed, events delivered, wall time, and per-event lateness (arrival
minus the moment the stream's request was sent + k * INTERVAL) at p50/p99/max, as one epoll
client sees it (so accepting 10,000 connections at once counts against the early events), and
the pacing once a stream runs (arrival minus the stream's first event + k * INTERVAL); and
stubd's peak thread count and RSS. The reference is an asyncio server in this script that writes
the same bytes with asyncio.sleep between events (how a Python mock would do it); each server's
stream is checked to be the same bytes before timing.

usage: bench/streams.py [--streams 10000] [--events 20] [--interval-ms 50] [--binary PATH]
"""
import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BENCH, Daemon, build_release, compile_c, raise_fd_limit  # noqa: E402


def write_stubs(root, events, interval):
    folder = os.path.join(root, "stream")
    os.makedirs(folder)
    with open(os.path.join(folder, "route.json"), "w") as f:
        json.dump({"method": "GET", "path": "/stream"}, f)
    items = [{"data": {"n": i, "token": f"t{i}"}, "id": str(i)} | ({"after": {"ms": interval}} if i else {}) for i in range(events)]
    with open(os.path.join(folder, "200.events.json"), "w") as f:
        json.dump(items, f)
    return [f'id: {i}\ndata: {{"n":{i},"token":"t{i}"}}\n\n'.encode() for i in range(events)]


def reference_server(frames, interval, ready):
    """An asyncio SSE server writing FRAMES with asyncio.sleep(INTERVAL) between them."""
    async def handle(reader, writer):
        try:
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n")
            for i, frame in enumerate(frames):
                if i:
                    await asyncio.sleep(interval / 1000)
                writer.write(b"%x\r\n%s\r\n" % (len(frame), frame))
                await writer.drain()
            writer.write(b"0\r\n\r\n")
            await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=16384)
        ready.append(server.sockets[0].getsockname()[1])
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def fetch(port, path="/stream"):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
        return r.read()


def wave(client, port, n, interval, sampler=None):
    out = subprocess.run([client, "127.0.0.1", str(port), str(n), "/stream", str(interval)], capture_output=True, text=True)
    done, events, wall, p50, p99, worst, q50, q99, qmax = out.stdout.split()
    return {"done": int(done), "events": int(events), "wall": float(wall), "p50": float(p50), "p99": float(p99), "max": float(worst),
            "q50": float(q50), "q99": float(q99), "qmax": float(qmax)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--streams", type=int, default=10000)
    p.add_argument("--events", type=int, default=20)
    p.add_argument("--interval-ms", type=int, default=50)
    p.add_argument("--binary")
    args = p.parse_args()
    raise_fd_limit()
    binary = args.binary or build_release()
    client = compile_c("streamwave.c", os.path.join(BENCH, "out"))
    root = tempfile.mkdtemp(prefix="stubd-streams-")
    frames = write_stubs(root, args.events, args.interval_ms)
    expected = b"".join(frames)
    daemon = Daemon(binary, "--no-watch", "--journal-size", "0", stubs=root)
    ready = []
    threading.Thread(target=reference_server, args=(frames, args.interval_ms, ready), daemon=True).start()
    while not ready:
        time.sleep(0.01)
    for name, port in [("stubd", daemon.port), ("reference", ready[0])]:
        got = fetch(port)
        if got != expected:
            raise SystemExit(f"{name} answered other bytes: {got[:200]!r}")
    samples, stop = [], threading.Event()

    def sample():
        while not stop.is_set():
            samples.append(daemon.stats())
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        ours = wave(client, daemon.port, args.streams, args.interval_ms)
    finally:
        stop.set()
        sampler.join()
    theirs = wave(client, ready[0], args.streams, args.interval_ms)
    daemon.stop()
    threads = max(s[0] for s in samples)
    rss = max(s[1] for s in samples)
    want = args.streams * args.events
    print(f"{args.streams} streams x {args.events} events, {args.interval_ms} ms apart (ideal {args.events - 1} x {args.interval_ms} ms per stream)")
    for name, r in [("stubd", ours), ("reference (asyncio)", theirs)]:
        print(f"  {name:20s} streams done {r['done']}/{args.streams}  events {r['events']}/{want}  wall {r['wall']:.0f} ms")
        print(f"  {'':20s} lateness from the request: p50 {r['p50']:.1f}  p99 {r['p99']:.1f}  max {r['max']:.1f} ms")
        print(f"  {'':20s} pacing after the first event: p50 {r['q50']:.1f}  p99 {r['q99']:.1f}  max {r['qmax']:.1f} ms")
    print(f"  stubd threads peak {threads}, RSS peak {rss:.0f} MB")
    ratio = lambda a, b: a / b if b else float("nan")  # noqa: E731
    print(f"  ratios stubd/reference: wall {ratio(ours['wall'], theirs['wall']):.2f}, p99 lateness {ratio(ours['p99'], theirs['p99']):.2f}")


if __name__ == "__main__":
    main()
