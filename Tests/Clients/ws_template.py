"""A templated conversation: values from the handshake and from the client's message; prints JSON.
usage: ws_template.py BASE_WS_URL"""
import json
import sys

from websockets.sync.client import connect

out = {}
with connect(sys.argv[1] + "/t/lobby?name=Ann", additional_headers={"X-App": "Shop/1.2"}) as ws:
    out["welcome"] = ws.recv(timeout=5)
    ws.send(json.dumps({"text": 'hi "there"'}))
    out["reply"] = json.loads(ws.recv(timeout=5))
print(json.dumps(out))
