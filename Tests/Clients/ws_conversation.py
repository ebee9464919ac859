"""A WebSocket conversation with stubd through Python's `websockets` (a strict RFC 6455 client):
prints what it saw as JSON for WebSocketTests. usage: ws_conversation.py BASE_WS_URL"""
import json
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

base = sys.argv[1]
out = {}
with connect(f"{base}/chat/lobby", subprotocols=["chat.v2", "chat.v1"]) as ws:
    out["subprotocol"] = ws.subprotocol
    out["onOpen"] = [ws.recv(timeout=5), ws.recv(timeout=5)]
    ws.send("ping")
    out["ping"] = ws.recv(timeout=5)
    ws.send(json.dumps({"type": "message", "text": "hello"}))
    out["json"] = ws.recv(timeout=5)
    ws.send("anything else")
    out["fallback"] = list(ws.recv(timeout=5))
    ws.ping(b"are you there").wait(timeout=5)
    out["pong"] = True
    ws.send("bye now")
    out["bye"] = ws.recv(timeout=5)
    try:
        ws.recv(timeout=5)
    except ConnectionClosed as e:
        out["closed"] = [e.rcvd.code, e.rcvd.reason] if e.rcvd else None
with connect(f"{base}/chat/lobby?flaky=1") as ws:
    out["flakyOpen"] = ws.recv(timeout=5)
    ws.send("x")
    try:
        ws.recv(timeout=5)
    except ConnectionClosed as e:
        out["dropped"] = {"closeFrame": e.rcvd is not None}
print(json.dumps(out))
