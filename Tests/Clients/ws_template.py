"""A templated conversation (values from the handshake and from the client's message) and messages
from files; prints JSON.
usage: ws_template.py BASE_WS_URL"""
import json
import sys

from websockets.sync.client import connect

out = {}
with connect(sys.argv[1] + "/t/lobby?name=Ann", additional_headers={"X-App": "Shop/1.2"}, origin="https://app.example") as ws:
    out["welcome"] = ws.recv(timeout=5)
    ws.send(json.dumps({"text": 'hi "there"'}))
    out["reply"] = json.loads(ws.recv(timeout=5))
with connect(sys.argv[1] + "/file") as ws:
    out["fileBytes"] = list(ws.recv(timeout=5))
    out["fileText"] = ws.recv(timeout=5)
print(json.dumps(out))
