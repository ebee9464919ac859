"""Talks to a conversation imported from a Chrome capture as the captured app did; prints JSON.
usage: ws_captured.py WS_URL"""
import json
import sys
import time

from websockets.sync.client import connect

out = {}
with connect(sys.argv[1], subprotocols=["prices.v1"]) as ws:
    out["subprotocol"] = ws.subprotocol
    out["hello"] = json.loads(ws.recv(timeout=5))["type"]
    ws.send(json.dumps({"type": "subscribe", "symbol": "AAPL", "id": 7, "authToken": "another"}))
    start = time.monotonic()
    first = json.loads(ws.recv(timeout=5))
    second = json.loads(ws.recv(timeout=5))
    out["priceAfterMs"] = round((time.monotonic() - start) * 1000)
    out["answers"] = [first["type"], second["type"]]
    ws.send("ping")
    out["pong"] = ws.recv(timeout=5)
print(json.dumps(out))
