#!/usr/bin/env python3
"""WebSocket conversations: threads and memory with many open at once, message round trip under
load against a Python `websockets` echo server measured in the same run, and a stop with many open.

1. Threads and RSS of stubd with 10 conversations open, then with N (default 10,000): the threads
   must not grow with the conversations (one hub thread holds them all); RSS per conversation is
   (RSS at N - RSS at 10) / (N - 10).
2. Round trip under load: with the N conversations still open and idle, A clients (default 50)
   each send M messages (64 bytes) one after another to an echo route and time each answer;
   p50/p99/max. The reference is Python's `websockets` asyncio echo server in its own process,
   holding the same N idle connections and the same A clients. Each server is checked to echo
   the same bytes before timing. Ratios are stubd / reference (below 1 is faster).
3. Stop: S conversations open (default 1,000), SIGTERM; the time until the process exits and how
   many clients got a close frame with 1001.

Needs Python's websockets (pip install websockets) and a file limit above N + 200 (raised to the hard
limit here). usage: bench/websocket.py [--conversations 10000] [--active 50] [--messages 200]
                                       [--stop 1000] [--event-loop native|poll] [--binary PATH]
"""
import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, build_release, percentile, proc_stats, raise_fd_limit, stubd_command  # noqa: E402

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

ECHO_SERVER = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with serve(echo, "127.0.0.1", 0, max_queue=None, ping_interval=None) as server:
        print("listening on", server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


def write_stubs(root):
    routes = {
        "echo": {"path": "/ws/echo", "websocket": {}, "variants": {"echo": {"conversation": {"replies": [{"send": [{"echo": True}]}]}}}},
        "quiet": {"path": "/ws/quiet", "websocket": {}, "variants": {"quiet": {"conversation": {"onOpen": [{"text": "hi"}]}}}},
    }
    for name, route in routes.items():
        os.makedirs(os.path.join(root, name))
        with open(os.path.join(root, name, "route.json"), "w") as f:
            json.dump(route, f)


async def open_many(url, n, into, first_message):
    """Opens n connections (200 handshakes at a time); with first_message, reads one message each."""
    gate = asyncio.Semaphore(200)

    async def one():
        async with gate:
            ws = await connect(url, ping_interval=None, max_queue=None, open_timeout=60)
            if first_message:
                await ws.recv()
            into.append(ws)
    await asyncio.gather(*(one() for _ in range(n)))


async def close_all(sockets):
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    sockets.clear()


async def round_trips(url, active, messages):
    payload = os.urandom(48).hex()[:64]
    times = []

    async def client():
        async with connect(url, ping_interval=None) as ws:
            for _ in range(messages):
                start = time.perf_counter()
                await ws.send(payload)
                answer = await ws.recv()
                times.append(time.perf_counter() - start)
                if answer != payload:
                    raise RuntimeError(f"{url} answered {answer!r}, not the message")
    await asyncio.gather(*(client() for _ in range(active)))
    return times


async def echoes_same(url):
    async with connect(url) as ws:
        await ws.send("same bytes?")
        text = await ws.recv()
        await ws.send(b"\x00\x01\xff")
        data = await ws.recv()
    return text == "same bytes?" and data == b"\x00\x01\xff"


async def measure_load(name, base, idle_url, echo_url, n, active, messages, pid):
    if not await echoes_same(echo_url):
        raise SystemExit(f"{name} does not echo the same bytes")
    idle = []
    await open_many(idle_url, n, idle, first_message=idle_url.endswith("/ws/quiet"))
    threads, rss = proc_stats(pid)
    times = await round_trips(echo_url, active, messages)
    await close_all(idle)
    ms = [t * 1000 for t in times]
    return {"p50": percentile(ms, 50), "p99": percentile(ms, 99), "max": max(ms), "threads": threads, "rss": rss}


async def stop_with_open(binary, stubs, count, work, loop):
    daemon = Server("stubd", stubd_command(binary, stubs, "--event-loop", loop), os.path.join(work, "stop.log"))
    sockets = []
    await open_many(f"ws://127.0.0.1:{daemon.port}/ws/quiet", count, sockets, first_message=True)
    codes = {}

    async def close_code(ws):
        try:
            await ws.recv()
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            codes[code] = codes.get(code, 0) + 1
    waiting = [asyncio.create_task(close_code(ws)) for ws in sockets]
    start = time.monotonic()
    daemon.proc.send_signal(signal.SIGTERM)
    exit_code = await asyncio.to_thread(daemon.proc.wait, 10)
    seconds = time.monotonic() - start
    await asyncio.wait_for(asyncio.gather(*waiting), 10)
    return exit_code, seconds, codes


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=50)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--stop", type=int, default=1_000)
    parser.add_argument("--event-loop", default="native", help="stubd's --event-loop (poll: the portable path)")
    parser.add_argument("--binary")
    args = parser.parse_args()
    limit = raise_fd_limit()
    if limit < args.conversations + 200:
        raise SystemExit(f"the file limit ({limit}) is too low for {args.conversations} conversations")
    binary = args.binary or build_release()
    work = tempfile.mkdtemp(prefix="stubd-bench-ws-")
    stubs = os.path.join(work, "stubs")
    write_stubs(stubs)

    # 1 and 2: stubd.
    daemon = Server("stubd", stubd_command(binary, stubs, "--event-loop", args.event_loop), os.path.join(work, "stubd.log"))
    base = f"ws://127.0.0.1:{daemon.port}"
    threads0, rss0 = proc_stats(daemon.pid)
    few = []
    await open_many(f"{base}/ws/quiet", 10, few, first_message=True)
    threads10, rss10 = proc_stats(daemon.pid)
    start = time.monotonic()
    load = await measure_load("stubd", base, f"{base}/ws/quiet", f"{base}/ws/echo", args.conversations - 10, args.active, args.messages,
                              daemon.pid)
    opening = time.monotonic() - start
    await close_all(few)
    daemon.stop()

    # 2: the reference.
    reference = Server("websockets", [sys.executable, "-c", ECHO_SERVER], os.path.join(work, "reference.log"))
    ref_base = f"ws://127.0.0.1:{reference.port}"
    ref = await measure_load("websockets", ref_base, ref_base, ref_base, args.conversations, args.active, args.messages, reference.pid)
    reference.stop()

    # 3: SIGTERM.
    exit_code, seconds, codes = await stop_with_open(binary, stubs, args.stop, work, args.event_loop)

    per_conversation_kb = (load["rss"] - rss10) * 1024 / max(1, args.conversations - 10)
    print(f"stubd --event-loop {args.event_loop}")
    print(f"stubd threads: {threads0} idle, {threads10} with 10 conversations, {load['threads']} with {args.conversations}")
    print(f"stubd RSS: {rss10:.1f} MB with 10, {load['rss']:.1f} MB with {args.conversations}: {per_conversation_kb:.1f} KB per conversation"
          f" (the reference: {ref['rss']:.1f} MB with {args.conversations})")
    print(f"opening {args.conversations} conversations and the round trips: {opening:.1f} s")
    print(f"round trip with {args.conversations} open, {args.active} clients x {args.messages} messages (ms):")
    print(f"  stubd      p50 {load['p50']:.2f}  p99 {load['p99']:.2f}  max {load['max']:.2f}")
    print(f"  websockets p50 {ref['p50']:.2f}  p99 {ref['p99']:.2f}  max {ref['max']:.2f}")
    print(f"  ratio      p50 {load['p50'] / ref['p50']:.2f}  p99 {load['p99'] / ref['p99']:.2f}")
    got_1001 = codes.get(1001, 0)
    print(f"SIGTERM with {args.stop} open: exit {exit_code} in {seconds:.3f} s; {got_1001} of {args.stop} got 1001 {dict(codes)}")


if __name__ == "__main__":
    asyncio.run(main())
