#!/usr/bin/env python3
"""The dashboard in headless Firefox, driven over WebDriver BiDi (Firefox's own remote protocol,
so no geckodriver is needed): the page loads, a variant picked in it is what curl gets, a request
shows in live traffic, and an XSS payload stays text.

usage: dashboard_firefox.py URL SCREENSHOT_DIR
Prints one JSON object. Exits 3 when Firefox or Python's websockets is missing.
"""
import asyncio
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

try:
    import websockets
except ImportError as error:
    print(f"websockets is not installed: {error}", file=sys.stderr)
    sys.exit(3)

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
if not FIREFOX:
    print("Firefox is not installed (Debian: firefox-esr)", file=sys.stderr)
    sys.exit(3)

base, shots = sys.argv[1], sys.argv[2]
out = {}


def curl(*args):
    run = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", *args], capture_output=True, text=True, timeout=10)
    body, _, status = run.stdout.rpartition("\n")
    return int(status or 0), body


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BiDi:
    """A WebDriver BiDi session over one WebSocket: commands by id, events ignored."""

    def __init__(self, ws):
        self.ws, self.next = ws, 0

    async def call(self, method, **params):
        self.next += 1
        ident = self.next
        await self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if message.get("id") == ident:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message["result"]

    async def js(self, context, expression):
        """The value of EXPRESSION (awaited) in the page, as a plain Python value."""
        result = await self.call("script.evaluate", expression=expression, target={"context": context}, awaitPromise=True)
        if result.get("type") == "exception":
            raise RuntimeError(result["exceptionDetails"]["text"])
        return plain(result["result"])

    async def until(self, context, expression, timeout=5.0):
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                value = await self.js(context, expression)
            except RuntimeError:
                value = None
            if value:
                return value, time.monotonic() - start
            await asyncio.sleep(0.02)
        return None, timeout


def plain(remote):
    kind = remote.get("type")
    if kind in ("string", "number", "boolean"):
        return remote["value"]
    if kind == "array":
        return [plain(v) for v in remote["value"]]
    return None


async def run():
    port = free_port()
    profile = tempfile.mkdtemp(prefix="stubd-firefox-")
    browser = subprocess.Popen([FIREFOX, "--headless", "--no-remote", "--profile", profile, f"--remote-debugging-port={port}",
                                "--window-size=1280,860"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                ws = await websockets.connect(f"ws://127.0.0.1:{port}/session", max_size=64 * 1024 * 1024)
                break
            except OSError:
                await asyncio.sleep(0.1)
        else:
            raise RuntimeError("Firefox's remote agent did not start")
        bidi = BiDi(ws)
        session = await bidi.call("session.new", capabilities={})
        out["browser"] = f"{session['capabilities']['browserName']} {session['capabilities']['browserVersion']}"
        tree = await bidi.call("browsingContext.getTree")
        context = tree["contexts"][0]["context"]
        started = time.monotonic()
        await bidi.call("browsingContext.navigate", context=context, url=base + "/__stubd/ui", wait="complete")
        rows, _ = await bidi.until(context, "document.querySelectorAll('#routes tr[data-route]').length")
        out["routes"] = rows
        out["loadSeconds"] = round(time.monotonic() - started, 3)

        # Variant 500 picked in the page is what curl gets.
        await bidi.js(context, """(() => { const s = document.querySelector('#routes tr[data-route="app/users"] select.variant');
            s.value = '500'; s.dispatchEvent(new Event('change')); return true; })()""")
        for _ in range(100):
            if curl(base + "/api/v1/users")[0] == 500:
                out["variant500"] = True
                break
            time.sleep(0.02)
        curl("-X", "DELETE", base + "/__stubd/routes/app/users")

        # A request shows in live traffic, and a payload in a header stays text.
        await bidi.js(context, "document.querySelector('#tabs button[data-view=\"traffic\"]').click(), true")
        payload = "<img src=x onerror=\"document.title='pwned'\">"
        curl("-H", "X-Evil: " + payload, base + "/api/v1/users/2")
        sent = time.monotonic()
        shown, _ = await bidi.until(context, "[...document.querySelectorAll('#traffic tbody tr td:nth-child(3)')].some(td => td.textContent === '/api/v1/users/2')")
        out["liveRowSeconds"] = round(time.monotonic() - sent, 3) if shown else None
        await bidi.js(context, """(() => { const row = [...document.querySelectorAll('#traffic tbody tr')]
            .find(r => r.cells[2].textContent === '/api/v1/users/2'); row.click(); return true; })()""")
        text, _ = await bidi.until(context, "document.getElementById('detail').textContent")
        out["payloadShownAsText"] = payload in (text or "")
        out["imagesInDetail"] = await bidi.js(context, "document.querySelectorAll('#detail img').length")
        out["title"] = await bidi.js(context, "document.title")
        shot = await bidi.call("browsingContext.captureScreenshot", context=context)
        with open(os.path.join(shots, "dashboard-firefox.png"), "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        await bidi.call("session.end")
        await ws.close()
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


asyncio.run(run())
print(json.dumps(out))
