"""Opens N WebSocket conversations and keeps them open; prints "ready" once each has its first
message, then, once the server has closed them all, the close codes received as JSON.
usage: ws_hold_open.py URL N"""
import json
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

url, n = sys.argv[1], int(sys.argv[2])
conversations = [connect(url) for _ in range(n)]
for ws in conversations:
    ws.recv(timeout=10)
print("ready", flush=True)
codes = []
for ws in conversations:
    try:
        while True:
            ws.recv(timeout=10)
    except ConnectionClosed as e:
        codes.append(e.rcvd.code if e.rcvd else None)
    except TimeoutError:
        codes.append("timeout")
print(json.dumps(codes))
