"""The socket faults of WebSocket conversations, as Python's websockets sees them; prints JSON.
usage: ws_faults.py BASE_WS_URL"""
import json
import sys
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

base = sys.argv[1]
out = {}
with connect(f"{base}/f/echo") as ws:
    ws.send("hello")
    ws.send(b"\x01\x02")
    out["echo"] = [ws.recv(timeout=5), list(ws.recv(timeout=5))]
# A hung server does not answer the closing handshake either: wait half a second for it, not ten.
with connect(f"{base}/f/hang", close_timeout=0.5) as ws:
    out["pongBeforeHang"] = ws.ping().wait(timeout=5)
    ws.send("one")
    out["beforeHang"] = ws.recv(timeout=5)
    ws.send("two")
    # ping() gives a threading.Event: wait() says whether the pong came in time.
    out["pongAfterHang"] = ws.ping().wait(timeout=1.5)
with connect(f"{base}/f/cut") as ws:
    try:
        ws.recv(timeout=5)
        out["cut"] = "message"
    except ConnectionClosed as e:
        out["cut"] = {"closeFrame": e.rcvd is not None}
with connect(f"{base}/f/slow") as ws:
    start = time.monotonic()
    message = ws.recv(timeout=10)
    out["slow"] = {"bytes": len(message), "seconds": round(time.monotonic() - start, 2)}
print(json.dumps(out))
