"""The shipped chat room through wsproto (python-hyper's sans-IO WebSocket, independent of
`websockets`) over a plain socket: handshake with a subprotocol, text both ways, a ping, a
fragmented message, and the server's close. Prints what it saw as JSON; exits 3 without wsproto.
usage: wsproto_chat.py HOST PORT"""
import json
import socket
import sys

try:
    from wsproto import ConnectionType, WSConnection
    from wsproto.events import (AcceptConnection, CloseConnection, Message, Ping, Pong, Request, TextMessage)
except ImportError as error:
    print(f"wsproto is not installed: {error}", file=sys.stderr)
    sys.exit(3)

host, port = sys.argv[1], int(sys.argv[2])
sock = socket.create_connection((host, port), timeout=5)
ws = WSConnection(ConnectionType.CLIENT)
out = {"texts": []}


def send(event):
    sock.sendall(ws.send(event))


def events_until(predicate):
    """Reads and handles events until predicate(event) holds; returns that event."""
    while True:
        for event in ws.events():
            if isinstance(event, TextMessage):
                out["texts"].append(json.loads(event.data).get("text") if event.data.startswith("{") else event.data)
            if predicate(event):
                return event
        data = sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the socket")
        ws.receive_data(data)


send(Request(host=f"{host}:{port}", target="/chat/lobby", subprotocols=["chat.v1"]))
accepted = events_until(lambda e: isinstance(e, AcceptConnection))
out["subprotocol"] = accepted.subprotocol
events_until(lambda e: isinstance(e, TextMessage))  # the welcome
send(Ping(payload=b"are you there"))
pong = events_until(lambda e: isinstance(e, Pong))
out["pong"] = pong.payload.decode()
# "hello" in two fragments: the server puts them together before answering.
send(TextMessage(data="hel", message_finished=False))
send(TextMessage(data="lo", message_finished=True))
events_until(lambda e: isinstance(e, TextMessage) and "Hi there!" in e.data)
send(TextMessage(data="bye"))
close = events_until(lambda e: isinstance(e, CloseConnection))
out["close"] = [close.code, close.reason]
send(close.response())
sock.close()
print(json.dumps(out))
