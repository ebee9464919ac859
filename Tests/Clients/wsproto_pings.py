"""Counts the server's pings through wsproto for SECONDS, answering each; prints JSON.
usage: wsproto_pings.py HOST PORT PATH SECONDS"""
import json
import socket
import sys
import time

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Ping, Request

host, port, path, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
sock = socket.create_connection((host, port), timeout=5)
ws = WSConnection(ConnectionType.CLIENT)
sock.sendall(ws.send(Request(host=f"{host}:{port}", target=path)))
out = {"pings": 0, "payloads": []}
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    sock.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        data = sock.recv(65536)
    except socket.timeout:
        break
    if not data:
        break
    ws.receive_data(data)
    for event in ws.events():
        if isinstance(event, Ping):
            out["pings"] += 1
            out["payloads"].append(event.payload.decode())
            sock.sendall(ws.send(event.response()))
        elif isinstance(event, AcceptConnection):
            out["accepted"] = True
sock.close()
print(json.dumps(out))
