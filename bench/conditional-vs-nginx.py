#!/usr/bin/env python3
"""Conditional and range requests, stubd against nginx serving the same bytes as a static file
(issue 38's goal: `If-None-Match`, `If-Modified-Since`, `Range` and `If-Range` behave as nginx
does). One file with a known modification time; stubd serves it with `etag: auto` and that time
as `lastModified`. Each condition is sent on a raw connection to both; printed per server: the
status, the body's length, and the headers that matter (ETag, Last-Modified, Content-Length,
Content-Range, Accept-Ranges); "same" compares status and body bytes. The tags differ by
construction (nginx's is mtime-size); each server is asked with its own.

  bench/conditional-vs-nginx.py [--binary .build/release/stubd]
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Daemon, free_port, wait_for_port  # noqa: E402

BODY = b'{"hello": "world"}\n'
MODIFIED = "Mon, 30 Nov 2026 10:00:00 GMT"
SHOWN = ("ETag", "Last-Modified", "Content-Length", "Content-Range", "Accept-Ranges")


def exchange(port, header):
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(f"GET /doc HTTP/1.1\r\nHost: x\r\n{header}\r\nConnection: close\r\n\r\n".encode())
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    shown = [line for line in lines[1:] if line.split(":")[0] in SHOWN]
    return lines[0].split(" ", 2)[1], body, shown


def etag_of(port):
    return next(line.split(": ", 1)[1] for line in exchange(port, "X-Nothing: 1")[2] if line.startswith("ETag"))


def conditions(tag):
    return [f"If-None-Match: {tag}", f"If-None-Match: W/{tag}", "If-None-Match: *", 'If-None-Match: "other"',
            f"If-Modified-Since: {MODIFIED}", "If-Modified-Since: Tue, 01 Dec 2026 10:00:00 GMT",
            "If-Modified-Since: Sun, 29 Nov 2026 10:00:00 GMT", f'If-None-Match: "other"\r\nIf-Modified-Since: {MODIFIED}',
            "Range: bytes=0-4", "Range: bytes=5-", "Range: bytes=-3", "Range: bytes=3-1000", "Range: bytes=19-", "Range: bytes=-0",
            "Range: bytes=4-2", "Range: items=0-4", "Range: bytes=0-1,3-4", f"Range: bytes=0-4\r\nIf-Range: {tag}",
            'Range: bytes=0-4\r\nIf-Range: "other"', f"Range: bytes=0-4\r\nIf-Range: {MODIFIED}",
            "Range: bytes=0-4\r\nIf-Range: Tue, 01 Dec 2026 10:00:00 GMT", f"Range: bytes=0-4\r\nIf-None-Match: {tag}"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/stubd"))
    args = parser.parse_args()
    if not shutil.which("nginx"):
        print("conditional-vs-nginx: nginx is not installed (apt-get install nginx-light); nothing run")
        return 0
    work = tempfile.mkdtemp(prefix="stubd-cond-")
    os.chmod(work, 0o755)  # nginx's workers run as another user when started as root
    www, stubs = os.path.join(work, "www"), os.path.join(work, "stubs", "app", "doc")
    os.makedirs(www)
    os.makedirs(stubs)
    with open(os.path.join(www, "doc"), "wb") as f:
        f.write(BODY)
    stamp = time.mktime(time.strptime(MODIFIED, "%a, %d %b %Y %H:%M:%S GMT")) - time.timezone
    os.utime(os.path.join(www, "doc"), (stamp, stamp))
    with open(os.path.join(stubs, "200.json"), "wb") as f:
        f.write(BODY)
    with open(os.path.join(stubs, "route.json"), "w") as f:
        json.dump({"method": "GET", "path": "/doc", "etag": "auto", "lastModified": MODIFIED}, f)
    port = free_port()
    with open(os.path.join(work, "nginx.conf"), "w") as f:
        f.write(f"worker_processes 1; daemon off; error_log {work}/error.log; pid {work}/nginx.pid;\nevents {{}}\n"
                f"http {{ access_log off; server {{ listen 127.0.0.1:{port}; root {www}; default_type application/json; }} }}\n")
    nginx = subprocess.Popen(["nginx", "-c", os.path.join(work, "nginx.conf"), "-p", work], stderr=subprocess.DEVNULL)
    daemon = Daemon(args.binary, stubs=os.path.join(work, "stubs"))
    try:
        wait_for_port(port)
        version = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
        print(f"| condition | {version} | stubd | same |\n|---|---|---|---|")
        ours, theirs = etag_of(daemon.port), etag_of(port)
        for mine, other in zip(conditions(ours), conditions(theirs)):
            a, b = exchange(port, other), exchange(daemon.port, mine)
            # A 416's body is nginx's error page: only the status and headers are compared there.
            same = a[0] == b[0] and (a[1] == b[1] or a[0] == "416")
            label = mine.replace(ours, "TAG").replace("\r\n", " + ")
            print(f"| `{label}` | {a[0]}, body {len(a[1])}, {'; '.join(a[2])} | {b[0]}, body {len(b[1])}, {'; '.join(b[2])} | {'yes' if same else 'no'} |")
    finally:
        daemon.stop()
        nginx.terminate()
        nginx.wait()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
