"""The shipped chat room over wss://, trusting only stubd's local authority; prints what it got as
JSON. usage: wss_chat.py URL CA_PEM"""
import json
import ssl
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

url, authority = sys.argv[1], sys.argv[2]
context = ssl.create_default_context(cafile=authority)
out = {}
with connect(url, ssl=context, subprotocols=["chat.v1"]) as ws:
    out["subprotocol"] = ws.subprotocol
    out["welcome"] = json.loads(ws.recv(timeout=5))["type"]
    ws.send("hello")
    out["reply"] = json.loads(ws.recv(timeout=5))["text"]
    ws.send("bye")
    out["bye"] = json.loads(ws.recv(timeout=5))["text"]
    try:
        ws.recv(timeout=5)
    except ConnectionClosed as e:
        out["close"] = [e.rcvd.code, e.rcvd.reason] if e.rcvd else None
print(json.dumps(out))
