#!/usr/bin/env python3
"""GraphQL subscriptions over a WebSocket, as Python's gql speaks them (graphql-transport-ws, what
Apollo iOS uses, and the legacy graphql-ws), plus raw protocol errors through websockets.

usage: gql_subscriptions.py WS_URL ADMIN_BASE   (WS_URL: ws://127.0.0.1:PORT/graphql)
Prints one JSON object; exits 3 when gql or websockets is not installed."""
import asyncio
import json
import sys
import urllib.request

try:
    from gql import Client, gql
    from gql.transport.exceptions import TransportQueryError
    from gql.transport.websockets import WebsocketsTransport
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
except ImportError as error:
    print(f"gql or websockets is not installed: {error}", file=sys.stderr)
    sys.exit(3)

url, admin = sys.argv[1], sys.argv[2]
ON_PRICE = gql("subscription OnPrice($symbol: String!) { price(symbol: $symbol) { symbol value } }")
out = {}


def client(subprotocol):
    return Client(transport=WebsocketsTransport(url=url, subprotocols=[subprotocol]))


async def prices(subprotocol, symbol):
    async with client(subprotocol) as session:
        return [r["price"]["value"] async for r in session.subscribe(ON_PRICE, variable_values={"symbol": symbol})]


def admin_call(method, path, body=None):
    request = urllib.request.Request(admin + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


async def pushed():
    """A subscription that stays open; the admin API pushes a next into it."""
    async with client(WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL) as session:
        stream = session.subscribe(ON_PRICE, variable_values={"symbol": "MSFT"})
        first = asyncio.ensure_future(stream.__anext__())
        for _ in range(100):
            listed = await asyncio.to_thread(admin_call, "GET", "/__stubd/conversations?open=true")
            talking = [c for c in listed["conversations"] if c["messagesIn"] >= 2]
            if talking:
                break
            await asyncio.sleep(0.02)
        sent = await asyncio.to_thread(admin_call, "POST", f"/__stubd/conversations/{talking[0]['id']}/send",
                                       {"next": {"data": {"price": {"symbol": "MSFT", "value": 420.5}}}})
        got = await asyncio.wait_for(first, 5)
        await stream.aclose()
        return {"sent": sent["sent"], "value": got["price"]["value"], "route": talking[0]["route"]}


async def close_code(messages, subprotocol="graphql-transport-ws"):
    """Sends raw protocol messages; the close code and reason the server answers with."""
    async with connect(url, subprotocols=[subprotocol]) as ws:
        for message in messages:
            await ws.send(message)
        try:
            while True:
                await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed as closed:
            return [closed.rcvd.code, closed.rcvd.reason] if closed.rcvd else None


async def main():
    out["transportWS"] = await prices(WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL, "AAPL")
    out["legacy"] = await prices(WebsocketsTransport.APOLLO_SUBPROTOCOL, "AAPL")
    try:
        await prices(WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL, "XXX")
        out["denied"] = "no error"
    except TransportQueryError as error:
        out["denied"] = error.errors[0]["message"] if error.errors else str(error)
    async with client(WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL) as session:
        out["queryOverSocket"] = await session.execute(gql("query GetUser { user(id: \"1\") { id name } }"))
        try:
            await session.execute(gql("query Missing { user(id: \"1\") { id } }"))
            out["unknown"] = "no error"
        except TransportQueryError as error:
            out["unknown"] = error.errors[0]["extensions"]["code"] if error.errors else str(error)
    out["pushed"] = await pushed()
    init = json.dumps({"type": "connection_init"})
    subscribe = json.dumps({"id": "1", "type": "subscribe", "payload": {"query": "subscription OnPrice { price(symbol: \"MSFT\") { value } }"}})
    out["subscribeBeforeInit"] = await close_code([subscribe])
    out["initTwice"] = await close_code([init, init])
    out["duplicateID"] = await close_code([init, subscribe, subscribe])
    out["notJSON"] = await close_code([init, "{nope"])


asyncio.run(main())
print(json.dumps(out))
