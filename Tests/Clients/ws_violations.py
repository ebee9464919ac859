"""Protocol violations from RFC 6455, each sent on its own fresh connection to a WebSocket route
after a real handshake; prints {case: close code seen} as JSON ("eof" when the connection closed
without a close frame). Frames are built here by hand, since no client library sends them.
usage: ws_violations.py PORT PATH"""
import base64
import json
import os
import socket
import struct
import sys

port, path = int(sys.argv[1]), sys.argv[2]


def handshake():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(5)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += s.recv(4096)
    head, rest = buf.split(b"\r\n\r\n", 1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return s, rest


def frame(op, payload, fin=True, mask=True, rsv=0):
    n, mb = len(payload), 0x80 if mask else 0
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | op])
    head += bytes([mb | n]) if n < 126 else bytes([mb | 126]) + struct.pack(">H", n) if n < 65536 else bytes([mb | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    m = os.urandom(4)
    return head + m + bytes(c ^ m[i % 4] for i, c in enumerate(payload))


def close_code(s, data):
    while True:
        while len(data) >= 2:
            op, n, at = data[0] & 0x0F, data[1] & 0x7F, 2
            if n == 126:
                n, at = struct.unpack(">H", data[2:4])[0], 4
            if len(data) < at + n:
                break
            payload, data = data[at:at + n], data[at + n:]
            if op == 8:
                return struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            return "timeout"
        except ConnectionResetError:
            return "reset"
        if not chunk:
            return "eof"
        data += chunk


cases = {
    "unmasked frame": frame(1, b"hi", mask=False),
    "reserved bit set": frame(1, b"hi", rsv=4),
    "unknown opcode 3": frame(3, b"hi"),
    "fragmented ping": frame(9, b"p", fin=False),
    "ping of 126 bytes": frame(9, b"p" * 126),
    "continuation without start": frame(0, b"x"),
    "invalid UTF-8 text": frame(1, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80"),
    "close code 999": frame(8, struct.pack(">H", 999)),
    "close code 1005": frame(8, struct.pack(">H", 1005)),
    "close reason not UTF-8": frame(8, struct.pack(">H", 1000) + b"\xff"),
    "message over the limit": frame(2, b"x" * (1100 * 1024)),
}
seen = {}
for name, data in cases.items():
    s, rest = handshake()
    try:
        s.sendall(data)
    except ConnectionResetError:
        pass
    seen[name] = close_code(s, rest)
    s.close()
print(json.dumps(seen))
