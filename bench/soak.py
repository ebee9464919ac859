#!/usr/bin/env python3
"""A soak: one stubd (`--binary`, default this checkout's release build; a Thread Sanitizer build
works too) serving the shipped Stubs over HTTP and HTTPS for `--minutes`, while client threads
send a mix and check every answer against the bytes the server gave the first time:

  - GET /api/v1/users/1 over HTTP and HTTPS (keep-alive), byte for byte;
  - GET /api/v1/users with a 5 to 50 ms delay;
  - POST /api/v1/changePass with a JSON body (the variant its `when` picks);
  - the server-sent events stream of POST /v1/chat/completions, every event counted;
  - per-session overrides set, used and cleared through the admin API;
  - requests with a folded header or a half-sent body, which must be refused or cut.

Every 30 s it prints answers so far, wrong ones, RSS and open descriptors; at the end the totals,
and for a sanitizer build the count of reports in its standard error.

Four more clients send keep-alive GETs back to back, each checked.

usage: bench/soak.py [--binary PATH] [--minutes N] [--clients N] [--fast-clients N]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_release, raise_fd_limit, rss_mb  # noqa: E402


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.answers = 0
        self.wrong = []

    def ok(self):
        with self.lock:
            self.answers += 1

    def bad(self, what):
        with self.lock:
            self.answers += 1
            if len(self.wrong) < 20:
                self.wrong.append(what)
            else:
                self.wrong.append("…")


def stream_events(conn, session):
    conn.request("POST", "/v1/chat/completions", body=b'{"stream": true}',
                 headers={"Content-Type": "application/json", "X-Stub-Session": session})
    response = conn.getresponse()
    text = response.read().decode()
    return response.status, text.count("data:")


def client(index, http_port, https_port, ca, expected, stop_at, tally):
    context = ssl.create_default_context(cafile=ca)
    plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    secure = http.client.HTTPSConnection("localhost", https_port, timeout=10, context=context)
    session = f"soak-{index}"
    n = 0
    while time.monotonic() < stop_at:
        n += 1
        try:
            step = n % 7
            if step in (0, 1):
                conn = plain if step == 0 else secure
                conn.request("GET", "/api/v1/users/1")
                r = conn.getresponse()
                body = r.read()
                (tally.ok if r.status == 200 and body == expected["user"] else lambda: tally.bad(f"users/1 {r.status}"))()
            elif step == 2:
                plain.request("GET", f"/api/v1/users?__delay={5 + n % 45}")
                r = plain.getresponse()
                body = r.read()
                (tally.ok if r.status == 200 and body == expected["users"] else lambda: tally.bad(f"users {r.status}"))()
            elif step == 3:
                plain.request("POST", "/api/v1/changePass", body=b'{"oldPassword": "a", "newPassword": "correct-horse-battery"}',
                              headers={"Content-Type": "application/json"})
                r = plain.getresponse()
                body = r.read()
                (tally.ok if r.status == expected["changePass"][0] and body == expected["changePass"][1] else lambda: tally.bad(f"changePass {r.status}"))()
            elif step == 4:
                status, events = stream_events(plain, session)
                (tally.ok if status == 200 and events == expected["events"] else lambda: tally.bad(f"stream {status} {events} events"))()
            elif step == 5:
                plain.request("PUT", "/__stubd/routes/app/users", body=b'{"variant": "503"}', headers={"X-Stub-Session": session})
                plain.getresponse().read()
                plain.request("GET", "/api/v1/users", headers={"X-Stub-Session": session})
                r = plain.getresponse()
                r.read()
                plain.request("DELETE", "/__stubd/routes/app/users", headers={"X-Stub-Session": session})
                plain.getresponse().read()
                (tally.ok if r.status == 503 else lambda: tally.bad(f"override {r.status}"))()
            else:
                s = socket.create_connection(("127.0.0.1", http_port), timeout=10)
                s.sendall(b"POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n 0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n")
                got = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    got += chunk
                s.close()
                (tally.ok if got.count(b"HTTP/1.1 ") == 1 and b" 400 " in got.split(b"\r\n")[0] else lambda: tally.bad("fold not refused once"))()
        except (OSError, http.client.HTTPException) as error:
            tally.bad(f"step {step}: {error!r}")
            plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
            secure = http.client.HTTPSConnection("localhost", https_port, timeout=10, context=context)


def fast_client(http_port, expected, stop_at, tally):
    """Keep-alive GETs back to back, each checked: the load that finds races."""
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    while time.monotonic() < stop_at:
        try:
            conn.request("GET", "/api/v1/users/1")
            r = conn.getresponse()
            body = r.read()
            (tally.ok if r.status == 200 and body == expected["user"] else lambda: tally.bad(f"fast users/1 {r.status}"))()
        except (OSError, http.client.HTTPException) as error:
            tally.bad(f"fast: {error!r}")
            conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary")
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--fast-clients", type=int, default=4)
    a = p.parse_args()
    raise_fd_limit()
    binary = a.binary or build_release()
    tls = tempfile.mkdtemp(prefix="stubd-soak-tls-")
    subprocess.run([binary, "tls", "init", "--dir", tls], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    errors = tempfile.NamedTemporaryFile(prefix="stubd-soak-", suffix=".err", delete=False)
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--tls", "--tls-port", "0", "--tls-dir", tls,
                             "--log", "off", "--stubs", os.path.join(ROOT, "Stubs")], stdout=subprocess.PIPE, stderr=errors, text=True)
    line = proc.stdout.readline()
    http_port = int(re.search(r"http://127\.0\.0\.1:(\d+)", line).group(1))
    https_port = int(re.search(r"https://127\.0\.0\.1:(\d+)", line).group(1))
    # The expected bytes: what the server says the first time.
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    expected = {}
    for key, path in (("user", "/api/v1/users/1"), ("users", "/api/v1/users")):
        conn.request("GET", path)
        expected[key] = conn.getresponse().read()
    conn.request("POST", "/api/v1/changePass", body=b'{"oldPassword": "a", "newPassword": "correct-horse-battery"}', headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    expected["changePass"] = (r.status, r.read())
    expected["events"] = stream_events(conn, "soak-first")[1]
    rss_start, fds_start = rss_mb(proc.pid), open_fds(proc.pid)
    tally = Tally()
    stop_at = time.monotonic() + a.minutes * 60
    threads = [threading.Thread(target=client, args=(i, http_port, https_port, os.path.join(tls, "ca.pem"), expected, stop_at, tally))
               for i in range(a.clients)]
    threads += [threading.Thread(target=fast_client, args=(http_port, expected, stop_at, tally)) for _ in range(a.fast_clients)]
    for t in threads:
        t.start()
    began = time.monotonic()
    while any(t.is_alive() for t in threads):
        time.sleep(min(30, max(0.5, stop_at - time.monotonic())))
        if time.monotonic() > stop_at and any(t.is_alive() for t in threads):
            continue
        print(f"  {time.monotonic() - began:6.0f} s: {tally.answers} answers, {len(tally.wrong)} wrong, RSS {rss_mb(proc.pid):.1f} MB, "
              f"{open_fds(proc.pid)} fds", flush=True)
    for t in threads:
        t.join()
    rss_end, fds_end = rss_mb(proc.pid), open_fds(proc.pid)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=30)
    errors.close()
    with open(errors.name, errors="replace") as f:
        stderr = f.read()
    reports = stderr.count("WARNING: ThreadSanitizer") + stderr.count("ERROR: AddressSanitizer")
    print(f"soak {a.minutes:g} min, {a.clients} clients: {tally.answers} answers, {len(tally.wrong)} wrong, RSS {rss_start:.1f} → {rss_end:.1f} MB, "
          f"fds {fds_start} → {fds_end}, exit {code}, sanitizer reports {reports}")
    for what in tally.wrong[:10]:
        print("   wrong:", what)
    if reports:
        print(f"   sanitizer output kept in {errors.name}")
    else:
        os.unlink(errors.name)
    shutil.rmtree(tls, ignore_errors=True)


if __name__ == "__main__":
    main()
