#!/usr/bin/env python3
"""The dashboard's conversations view in headless Chromium: a Python websockets client holds the
shipped chat room open; the page lists the conversation, shows its messages both ways as they
happen, pushes a message typed in its box and closes it.

usage: dashboard_conversations.py HTTP_BASE SCREENSHOT_DIR
Prints one JSON object; exits 3 when Selenium or chromedriver is missing."""
import json
import sys
import time

from chromium import chrome  # exits 3 without Selenium or chromedriver
from selenium.webdriver.common.by import By
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

base, shots = sys.argv[1], sys.argv[2]
out = {}


def wait(predicate, timeout=5.0):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            value = predicate()
        except Exception:  # redrawn while read: look again
            value = None
        if value:
            return value, time.monotonic() - start
        time.sleep(0.02)
    return None, timeout


def messages(driver):
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#conversation-messages li")]


with connect(base.replace("http://", "ws://") + "/chat/lobby", subprotocols=["chat.v1"]) as ws:
    ws.recv(timeout=5)
    driver = chrome()
    try:
        driver.get(base + "/__stubd/ui#conversations")
        row, _ = wait(lambda: driver.find_element(By.CSS_SELECTOR, "#conversations tbody tr"))
        out["listed"] = bool(row) and "/chat/lobby" in row.text and "open" in row.text
        # The list is redrawn when a conversation changes (Jane's message after 2 s): click again if so.
        wait(lambda: driver.find_element(By.CSS_SELECTOR, "#conversations tbody tr").click() or True)
        shown, _ = wait(lambda: any("welcome" in m for m in messages(driver)))
        out["welcomeShown"] = bool(shown)
        # The client speaks: its message and the scripted answer show without a reload.
        ws.send("hello from the app")
        start = time.monotonic()
        ws.recv(timeout=5)
        both, _ = wait(lambda: any("hello from the app" in m for m in messages(driver)) and any("Hi there!" in m for m in messages(driver)))
        out["bothWaysShown"] = bool(both)
        out["liveSeconds"] = round(time.monotonic() - start, 2)
        # A person types a message in the box and sends it; the client gets it.
        wait(lambda: driver.find_element(By.ID, "conversation-message").send_keys('{"type": "message", "from": "QA", "text": "pushed"}') or True)
        wait(lambda: driver.find_element(By.ID, "conversation-send").click() or True)
        pushed = None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            got = json.loads(ws.recv(timeout=5))
            if got.get("from") == "QA":
                pushed = got
                break
        out["clientGotPush"] = pushed is not None and pushed.get("text") == "pushed"
        driver.save_screenshot(f"{shots}/dashboard-conversations.png")
        wait(lambda: driver.find_element(By.XPATH, "//aside[@id='conversation']//button[starts-with(text(), 'Close')]").click() or True)
        try:
            while True:
                ws.recv(timeout=5)
        except ConnectionClosed as closed:
            out["closeCode"] = closed.rcvd.code if closed.rcvd else None
        ended, _ = wait(lambda: "ended" in driver.find_element(By.CSS_SELECTOR, "#conversation .muted").text)
        out["endedShown"] = bool(ended)
        out["browserErrors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
print(json.dumps(out))
