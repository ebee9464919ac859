#!/usr/bin/env python3
"""What a stubd binary answers to malformed request heads and to heads of every size, over raw
sockets: the framing table (one answer, then a closed connection, for every defect) and the
head-size table (size -> status and Content-Type). Run it once per libmicrohttpd build:

  bench/heads.py --binary .build/release/stubd
  LD_LIBRARY_PATH=$PREFIX/lib bench/heads.py --binary .build-mhd1/release/stubd

Each row sends one request on a fresh connection, then reads until the server closes or 3 s
pass. "heads" counts the status lines received (more than one means bytes after a bad head were
answered as another request); "closed" says whether the server closed within those 3 s.
Exit status 1 when any row breaks the rules above (a second head, an open connection after a
refusal, or a head up to 64 KiB answered without a Content-Type): a row marked broken is a gap,
stubd's or the library's, not a failure of the script.
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Daemon  # noqa: E402

PATH = "/api/v1/users/1"
POST = "/api/v1/changePass"

# (name, bytes) - every defect a proxy in front of stubd could read differently than stubd does.
# Rows in KEEP_OPEN are well framed: a 200 or stubd's 400 may keep the connection; the rest must
# close after their one answer.
FRAMING = [
    ("CL + TE", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET {PATH} HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("TE + CL", f"POST {POST} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\nGET {PATH} HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("two different CLs", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
    ("CL list", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nhello"),
    ("CL not a number", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\nhello"),
    ("CL negative", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\nhello"),
    ("CL with a sign", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello"),
    ("CL hex", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\nhello"),
    ("CL empty", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\nhello"),
    ("CL over 64 bits", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\nhello"),
    ("unknown coding", f"POST {POST} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabcd"),
    ("two codings", f"POST {POST} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
    ("TE twice", f"POST {POST} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
    ("no Host", f"GET {PATH} HTTP/1.1\r\n\r\nGET {PATH} HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("two Hosts", f"GET {PATH} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
    ("space before colon", f"GET {PATH} HTTP/1.1\r\nHost : a\r\nHost: a\r\n\r\n"),
    ("bare CR in a value", f"GET {PATH} HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n"),
    ("NUL in a value", f"GET {PATH} HTTP/1.1\r\nHost: a\r\nX-A: b\0c\r\n\r\n"),  # 0.9.75 cuts the value: served
    ("line without colon", f"GET {PATH} HTTP/1.1\r\nHost: a\r\nX-A b\r\n\r\n"),
    ("space in the path", f"GET /api/v1/us ers/1 HTTP/1.1\r\nHost: a\r\n\r\n"),  # a framed request: stubd's 400 keeps it open
    ("folded CL", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n 0\r\n\r\nGET {PATH} HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("folded TE", f"POST {POST} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\nGET {PATH} HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("folded ordinary header", f"GET {PATH} HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n\tb c\r\n\r\n"),
    ("TE on HTTP/1.0", f"POST {POST} HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET {PATH} HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("bad chunk size", f"POST {POST} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\nGET {PATH} HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("declared body over the limit", f"POST {POST} HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n"),
]

KEEP_OPEN = {"NUL in a value", "space in the path"}

HEAD_SIZES = [64, 512, 1024, 4096, 6144, 7000, 7168, 7400, 8192, 8400, 9216, 10240, 12288, 16384, 24576, 32768, 49152, 65536]


def exchange(port, data, wait=3.0):
    """Sends `data`, reads until close or `wait` seconds of silence; (bytes, closed)."""
    s = socket.create_connection(("127.0.0.1", port))
    try:
        s.sendall(data)
    except OSError:
        pass
    s.settimeout(wait)
    out, closed = b"", False
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            out += chunk
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    s.close()
    return out, closed


def describe(answer):
    heads = re.findall(rb"HTTP/1\.[01] (\d{3})", answer)
    head = answer.split(b"\r\n\r\n", 1)[0]
    ctype = re.search(rb"(?im)^content-type:\s*([^\r\n;]+)", head)
    error = re.search(rb'"error":\s*"([^"]*)"', answer)
    return ([h.decode() for h in heads], ctype.group(1).decode() if ctype else "-", error.group(1).decode() if error else "")


def head_of(size, where):
    """A GET whose head is `size` bytes, padded in a header or in the query."""
    if where == "header":
        base = f"GET {PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: \r\n\r\n"
        return (base.replace("X-Pad: ", "X-Pad: " + "a" * max(0, size - len(base)))).encode()
    base = f"GET {PATH}?q= HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    return base.replace("?q=", "?q=" + "a" * max(0, size - len(base))).encode()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "stubd"))
    p.add_argument("args", nargs="*", help="extra arguments for stubd serve")
    a = p.parse_args()
    version = subprocess.run([a.binary, "--version"], capture_output=True, text=True).stdout.strip()
    d = Daemon(a.binary, "--no-watch", *a.args)
    bad = 0
    try:
        print(f"# {version}\n\n| case | status | Content-Type | heads | closed | error |\n|---|---|---|---|---|---|")
        for name, text in FRAMING:
            answer, closed = exchange(d.port, text.encode("latin-1"))
            heads, ctype, error = describe(answer)
            ok = len(heads) == 1 and (closed or name in KEEP_OPEN)
            bad += not ok
            print(f"| {name} | {heads[0] if heads else 'none'} | {ctype} | {len(heads)} | {'yes' if closed else 'no'} | {error}{'' if ok else ' **broken**'} |")
        print("\n| head bytes | in a header | in the query |\n|---|---|---|")
        for size in HEAD_SIZES:
            cells = []
            for where in ("header", "query"):
                answer, _ = exchange(d.port, head_of(size, where))
                heads, ctype, _ = describe(answer)
                if not heads or ctype == "-":
                    bad += 1
                cells.append(f"{heads[0] if heads else 'silence'} {ctype}")
            print(f"| {size} | {cells[0]} | {cells[1]} |")
    finally:
        d.stop()
    print(f"\n{'all rows as they should be' if not bad else f'{bad} rows broken'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
