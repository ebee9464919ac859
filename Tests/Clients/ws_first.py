"""Opens one WebSocket conversation and prints its first message (or how it was refused), after
printing "connecting". usage: ws_first.py URL [SESSION_HEADER]"""
import sys

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

headers = {"X-Stub-Session": sys.argv[2]} if len(sys.argv) > 2 else {}
print("connecting", flush=True)
try:
    with connect(sys.argv[1], additional_headers=headers, open_timeout=20) as ws:
        print(ws.recv(timeout=10), flush=True)
except InvalidStatus as refused:
    print(f"refused {refused.response.status_code}", flush=True)
