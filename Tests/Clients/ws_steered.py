"""Holds one WebSocket conversation open while a test steers it through the admin API: prints
"ready" after the two greetings, then, as JSON, the message pushed in and how it was closed.
usage: ws_steered.py URL"""
import json
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

out = {}
with connect(sys.argv[1]) as ws:
    ws.recv(timeout=10)
    ws.recv(timeout=10)
    print("ready", flush=True)
    out["pushed"] = ws.recv(timeout=10)
    ws.send("ping")
    out["pong"] = ws.recv(timeout=10)
    try:
        ws.recv(timeout=10)
    except ConnectionClosed as e:
        out["closed"] = [e.rcvd.code, e.rcvd.reason] if e.rcvd else None
print(json.dumps(out), flush=True)
