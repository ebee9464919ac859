#!/usr/bin/env python3
"""Hardening, round four: what one WebSocket client can do to the others (issue 55), against two
stubd binaries in the same run (`--before`, an older build, and `--after`, default: this
checkout's release build), each row printing both. Every client here is a raw socket with its own
framing, so that nothing in a client library smooths over what the server sends.

  flood    one client sends 1-byte text messages to the shipped /chat/{room} as fast as it can
           (reading its replies) for 8 s; meanwhile a second conversation sends "hello" every
           0.1 s and times "Hi there!": p50 / p100 and unanswered probes (5 s timeout each). The
           reference is the same probe without the flood, in the same run. Then SIGTERM's time,
           with the flood still running.
  queue    a client sends 1 MiB messages to an echo route for 9 s and never reads: the daemon's
           RSS growth, and what the flooding client was told (close code, or nothing)
  idle     `--max-connections 60`: 60 idle conversations, then a plain GET (answered or refused);
           and, for the after binary, conversations idle past `--websocket-idle-timeout 2s`
           closed (close code seen)
  wss      echo round trips over ws:// and wss:// (same daemon): p50 of 200 small messages and
           the mean of 20 of 64 KiB; the wss/ws ratio
  drop     the shipped `drops` variant: replies received to its 3 messages before the drop; a
           message and a close frame in one write to an echo route: the echo received
  handshake  HTTP/1.0 upgrade, HEAD with upgrade headers, a duplicate Sec-WebSocket-Key: the
           status line each gets, and what the journal recorded for the HTTP/1.0 one

Before anything is timed, both binaries must answer GET /api/v1/users/1 with the same bytes.

usage: bench/websocket-assault.py --before PATH [--after PATH] [--only NAME ...]
"""
import argparse
import base64
import json
import os
import re
import select
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_release, percentile, raise_fd_limit, rss_mb, sigterm  # noqa: E402

ECHO_ROUTE = {"path": "/ws/echo", "websocket": {}, "variants": {"echo": {"conversation": {"replies": [{"send": [{"echo": True}]}]}}}}


def start(binary, stubs=None, extra=()):
    """`stubd serve` on a free port; returns (process, port, tls port or None)."""
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--log", "off", "--no-watch",
                             "--stubs", stubs or os.path.join(ROOT, "Stubs"), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], 15)
    line = proc.stdout.readline() if ready else ""
    plain = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    secure = re.search(r"https://127\.0\.0\.1:(\d+)", line)
    if not plain and not secure:
        proc.kill()
        raise RuntimeError(f"{binary} did not start: {line}")
    return proc, int(plain.group(1)) if plain else None, int(secure.group(1)) if secure else None


def stubs_with_echo():
    folder = tempfile.mkdtemp(prefix="stubd-ws-assault-")
    shutil.copytree(os.path.join(ROOT, "Stubs"), os.path.join(folder, "Stubs"))
    echo = os.path.join(folder, "Stubs", "ws", "echo")
    os.makedirs(echo)
    with open(os.path.join(echo, "route.json"), "w") as f:
        json.dump(ECHO_ROUTE, f)
    return os.path.join(folder, "Stubs")


def frame(payload, opcode=1):
    """A masked client frame."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n < 4096 else _mask_big(payload, mask)
    return head + mask + masked


def _mask_big(payload, mask):
    repeated = (mask * (len(payload) // 4 + 1))[:len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")


class Client:
    """One raw WebSocket client: handshake, framing, and reading server frames."""

    def __init__(self, port, path, tls=None, timeout=5):
        raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = tls.wrap_socket(raw, server_hostname="localhost") if tls else raw
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buf += chunk
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.split(b"\r\n")[0].decode())

    def send(self, payload, opcode=1):
        self.sock.sendall(frame(payload, opcode))

    def recv(self, timeout=5):
        """(opcode, payload) of the next frame; None on EOF or timeout."""
        deadline = time.monotonic() + timeout
        while True:
            parsed = self._parse()
            if parsed:
                return parsed
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 20)
            except (socket.timeout, ssl.SSLError, OSError):
                return None
            if not chunk:
                return None
            self.buf += chunk

    def _parse(self):
        if len(self.buf) < 2:
            return None
        opcode, n, at = self.buf[0] & 0x0F, self.buf[1] & 0x7F, 2
        if n == 126:
            if len(self.buf) < 4:
                return None
            n, at = struct.unpack("!H", self.buf[2:4])[0], 4
        elif n == 127:
            if len(self.buf) < 10:
                return None
            n, at = struct.unpack("!Q", self.buf[2:10])[0], 10
        if len(self.buf) < at + n:
            return None
        payload, self.buf = self.buf[at:at + n], self.buf[at + n:]
        return opcode, payload

    def recv_text(self, timeout=5):
        """The next text message, skipping pings; None on EOF, close or timeout."""
        deadline = time.monotonic() + timeout
        while True:
            got = self.recv(max(0.001, deadline - time.monotonic()))
            if got is None or got[0] == 8:
                return None
            if got[0] == 1:
                return got[1].decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def flood(binary):
    proc, port, _ = start(binary)
    row = {}

    def probe(seconds):
        c = Client(port, "/chat/probe")
        c.recv_text()  # the welcome
        times, missed = [], 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            began = time.monotonic()
            c.send(b"hello")
            while True:
                text = c.recv_text(timeout=5)
                if text is None:
                    missed += 1
                    break
                if "Hi there" in text:
                    times.append(time.monotonic() - began)
                    break
            time.sleep(max(0, 0.1 - (time.monotonic() - began)))
        c.close()
        return times, missed

    quiet, _ = probe(2)
    row["probe p50 alone"] = f"{percentile(quiet, 50) * 1000:.1f} ms"
    stop = threading.Event()
    sent = [0]
    flooder = Client(port, "/chat/flood")
    batch = frame(b"a") * 4096

    def send():
        try:
            while not stop.is_set():
                flooder.sock.sendall(batch)
                sent[0] += 4096
        except OSError:
            pass

    def read():
        flooder.sock.settimeout(0.5)
        while not stop.is_set():
            try:
                if not flooder.sock.recv(1 << 20):
                    return
            except socket.timeout:
                continue
            except OSError:
                return
    threads = [threading.Thread(target=send, daemon=True), threading.Thread(target=read, daemon=True)]
    for t in threads:
        t.start()
    times, missed = probe(8)
    row["probe p50 under flood"] = f"{percentile(times, 50) * 1000:.1f} ms" if times else "none"
    row["probe p100 under flood"] = f"{max(times) * 1000:.1f} ms" if times else "none"
    row["probes unanswered in 5 s"] = missed
    row["flood messages sent"] = sent[0]
    took = sigterm(proc, 30)
    row["SIGTERM during flood"] = f"{took:.2f} s" if took is not None else "killed after 30 s"
    stop.set()
    flooder.close()
    return row


def queue(binary):
    proc, port, _ = start(binary, stubs_with_echo())
    base_rss = rss_mb(proc.pid)
    c = Client(port, "/ws/echo")
    c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    message = frame(os.urandom(1 << 20), opcode=2)
    peak, sent, end, error = base_rss, 0, time.monotonic() + 9, None
    c.sock.settimeout(0.2)
    while time.monotonic() < end:
        try:
            c.sock.sendall(message)
            sent += 1
        except socket.timeout:
            pass
        except OSError as e:
            error = e.__class__.__name__
            break
        peak = max(peak, rss_mb(proc.pid))
    peak = max(peak, rss_mb(proc.pid))
    c.sock.settimeout(2)
    told = "nothing (not reading)"
    c.close()
    sigterm(proc)
    return {"MiB sent": sent, "RSS growth": f"{peak - base_rss:.0f} MB", "client's send": error or "ok", "told": told}


def idle(binary, after):
    row = {}
    proc, port, _ = start(binary, extra=("--max-connections", "60"))
    clients = []
    for _ in range(60):
        try:
            clients.append(Client(port, "/chat/idle"))
        except (ConnectionError, OSError) as e:
            row["refused handshake"] = str(e)[:40]
            break
    row["conversations open"] = len(clients)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/users/1", timeout=3) as r:
            row["plain GET beside them"] = r.status
    except Exception as e:  # noqa: BLE001
        row["plain GET beside them"] = f"failed: {e.__class__.__name__}"
    for c in clients:
        c.close()
    sigterm(proc)
    if after:
        proc, port, _ = start(binary, extra=("--websocket-idle-timeout", "2s"))
        c = Client(port, "/chat/idle")
        began = time.monotonic()
        code = None
        while time.monotonic() - began < 10:
            got = c.recv(timeout=10 - (time.monotonic() - began))
            if got is None:
                break
            if got[0] == 8:
                code = struct.unpack("!H", got[1][:2])[0] if len(got[1]) >= 2 else "none"
                break
        row["idle 2 s conversation closed after"] = f"{time.monotonic() - began:.1f} s, code {code}"
        c.close()
        sigterm(proc)
    return row


def wss(binary):
    tls_dir = tempfile.mkdtemp(prefix="stubd-ws-tls-")
    subprocess.run([binary, "tls", "init", "--tls-dir", tls_dir], check=True, capture_output=True)
    proc, port, tls_port = start(binary, stubs_with_echo(), extra=("--tls-dir", tls_dir, "--tls-port", "0"))
    context = ssl.create_default_context(cafile=os.path.join(tls_dir, "ca.pem"))
    row = {}
    for name, tls, p in (("ws", None, port), ("wss", context, tls_port)):
        c = Client(p, "/ws/echo", tls=tls)
        small = []
        for _ in range(200):
            began = time.perf_counter()
            c.send(b"x" * 32)
            c.recv(5)
            small.append(time.perf_counter() - began)
        big = []
        payload = os.urandom(64 * 1024)
        for _ in range(20):
            began = time.perf_counter()
            c.send(payload, opcode=2)
            got = c.recv(10)
            big.append(time.perf_counter() - began)
            if got is None or got[1] != payload:
                big.append(float("inf"))
                break
        c.close()
        row[f"{name} p50"] = percentile(small, 50)
        row[f"{name} 64 KiB mean"] = sum(big) / len(big)
    sigterm(proc)
    return {"ws p50": f"{row['ws p50'] * 1000:.2f} ms", "wss p50": f"{row['wss p50'] * 1000:.2f} ms",
            "wss/ws p50": f"{row['wss p50'] / row['ws p50']:.1f}",
            "ws 64 KiB": f"{row['ws 64 KiB mean'] * 1000:.1f} ms", "wss 64 KiB": f"{row['wss 64 KiB mean'] * 1000:.1f} ms"}


def drop(binary):
    proc, port, _ = start(binary, stubs_with_echo())
    row = {}
    c = Client(port, "/chat/lobby?__variant=drops")
    c.recv_text()
    for i in range(3):
        c.send(f"m{i}".encode())
    replies = 0
    while c.recv_text(timeout=3) is not None:
        replies += 1
    row["drops: replies to 3 messages"] = replies
    c.close()
    c = Client(port, "/ws/echo")
    c.sock.sendall(frame(b"last words") + frame(struct.pack("!H", 1000), opcode=8))
    got, echoed = c.recv(3), False
    while got is not None:
        echoed = echoed or (got[0] == 1 and got[1] == b"last words")
        if got[0] == 8:
            break
        got = c.recv(3)
    row["message+close in one write: echoed"] = echoed
    c.close()
    sigterm(proc)
    return row


def handshake(binary):
    proc, port, _ = start(binary)
    key = base64.b64encode(os.urandom(16)).decode()
    other = base64.b64encode(os.urandom(16)).decode()
    cases = {
        "HTTP/1.0": f"GET /chat/x HTTP/1.0\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n",
        "HEAD": f"HEAD /chat/x HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n",
        "two keys": f"GET /chat/x HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Key: {other}\r\nSec-WebSocket-Version: 13\r\n\r\n",
    }
    row = {}
    for name, request in cases.items():
        with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
            s.sendall(request.encode())
            data = b""
            try:
                while b"\r\n" not in data:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            except socket.timeout:
                pass
            row[name] = data.split(b"\r\n")[0].decode() or "EOF"
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/__stubd/journal", timeout=3) as r:
        entries = json.load(r)
    entries = entries.get("requests", entries) if isinstance(entries, dict) else entries
    recorded = [e.get("status") for e in entries if "/chat/x" in json.dumps(e)]
    row["journal statuses"] = recorded
    sigterm(proc)
    return row


ATTACKS = {"flood": flood, "queue": queue, "idle": idle, "wss": wss, "drop": drop, "handshake": handshake}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after")
    parser.add_argument("--only", nargs="*", choices=sorted(ATTACKS))
    args = parser.parse_args()
    raise_fd_limit()
    after = args.after or build_release()
    answers = []
    for binary in (args.before, after):
        proc, port, _ = start(binary)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/users/1", timeout=5) as r:
            answers.append(r.read())
        sigterm(proc)
    if answers[0] != answers[1]:
        sys.exit("the two binaries answer GET /api/v1/users/1 differently; not comparing them")
    for name in args.only or ATTACKS:
        print(f"\n## {name}")
        for label, binary in (("before", args.before), ("after", after)):
            attack = ATTACKS[name]
            row = attack(binary, label == "after") if name == "idle" else attack(binary)
            print(f"- {label}: " + "; ".join(f"{k}: {v}" for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main()
