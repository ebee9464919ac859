#!/usr/bin/env python3
"""The dashboard's state view in headless Chromium against the shipped stubs: the app service's
state values (password) and the app/todos collection are shown; in a session picked in Steer, a
value saved from the page is what /login checks, a collection opened, replaced and reset, a
request's change shows without a reload, and "Reset all" puts the seeds back.

usage: dashboard_state.py HTTP_BASE SCREENSHOT_DIR
Prints one JSON object; exits 3 when Selenium or chromedriver is missing."""
import json
import subprocess
import sys
import time

from chromium import chrome  # exits 3 without Selenium or chromedriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

base, shots = sys.argv[1], sys.argv[2]
out = {}
SESSION = "phone-1"
APP = '#state-services .card[data-service="app"]'
TODOS = '#state-collections details[data-collection="app/todos"]'


def curl(*args):
    """Runs curl; returns (status, body)."""
    run = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", *args], capture_output=True, text=True, timeout=10)
    body, _, status = run.stdout.rpartition("\n")
    return int(status or 0), body


def wait(predicate, timeout=5.0):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            value = predicate()
        except Exception:  # redrawn while read: look again
            value = None
        if value:
            return value
        time.sleep(0.02)
    return None


def text_of(d, css):
    return d.find_element(By.CSS_SELECTOR, css).get_attribute("value")


def replace_text(d, css, text):
    """Types `text` over the box's, again if the page redraws the box meanwhile."""
    def attempt():
        box = d.find_element(By.CSS_SELECTOR, css)
        box.clear()
        box.send_keys(text)
        return box.get_attribute("value") == text
    return wait(attempt)


def click(d, css):
    return wait(lambda: d.find_element(By.CSS_SELECTOR, css).click() or True)


def login(password, session=None):
    headers = ["-H", f"X-Stub-Session: {session}"] if session else []
    return curl(*headers, f"{base}/api/v1/login?email=jane%40example.com&password={password}")[0]


def severe(d):
    """The browser's errors since last asked."""
    return [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]


def todos_count(d):
    return d.find_element(By.CSS_SELECTOR, f"{TODOS} .count").text


curl("-H", f"X-Stub-Session: {SESSION}", f"{base}/api/v1/users")  # the session, for the Steer picker
driver = chrome()
try:
    d = driver
    d.get(base + "/__stubd/ui#state")
    shown = wait(lambda: "correct-horse" in text_of(d, f"{APP} textarea"))
    values = json.loads(text_of(d, f"{APP} textarea")) if shown else {}
    out["passwordShown"] = values.get("password") == "correct-horse"
    out["todosListed"] = bool(wait(lambda: "app/todos" in d.find_element(By.CSS_SELECTOR, f"{TODOS} summary").text))
    out["todosCount"] = wait(lambda: todos_count(d))

    # Steer the session; a value saved there is what /login checks there, and only there.
    wait(lambda: Select(d.find_element(By.ID, "scope")).select_by_value(SESSION) or True)
    out["scopeShown"] = bool(wait(lambda: d.find_element(By.ID, "state-scope").text == "session " + SESSION))
    replace_text(d, f"{APP} textarea", '{"password": "from-the-page", "passwordChanges": 0}')
    click(d, f"{APP} button.save-state")
    wait(lambda: login("from-the-page", SESSION) == 200, timeout=3)
    out["savedInSession"] = login("from-the-page", SESSION) == 200
    out["globalUntouched"] = login("from-the-page") == 401 and login("correct-horse") == 200

    # A collection opened to its objects, replaced, and put back to its seed.
    click(d, f"{TODOS} summary")
    objects = wait(lambda: json.loads(text_of(d, f"{TODOS} textarea")))
    out["objectsShown"] = len(objects or [])
    replace_text(d, f"{TODOS} textarea", '[{"id": 1, "title": "Only one", "done": false}]')
    click(d, f"{TODOS} button.save-collection")
    out["collectionSavedCount"] = wait(lambda: todos_count(d) == "1" and todos_count(d))
    _, listed = curl("-H", f"X-Stub-Session: {SESSION}", f"{base}/api/v1/todos")
    out["appSeesSaved"] = [t.get("title") for t in json.loads(listed).get("data", [])] == ["Only one"]
    # What the server refuses is said with where: an object without its id.
    replace_text(d, f"{TODOS} textarea", '[{"title": "no id"}]')
    click(d, f"{TODOS} button.save-collection")
    out["refusalShown"] = bool(wait(lambda: "[0]: expected an object with id" in d.find_element(By.ID, "toast").text, timeout=3))
    # The browser logs that 400 as an error of its own: the one expected here, not counted.
    errors = [m for m in severe(d) if "collections/app/todos - Failed to load resource" not in m or "status of 400" not in m]
    click(d, f"{TODOS} button.reset-collection")
    out["collectionResetCount"] = wait(lambda: todos_count(d) == "5" and todos_count(d))

    # The app changes the password: the page shows it without a reload.
    status, _ = curl("-X", "POST", "-H", f"X-Stub-Session: {SESSION}", "-H", "Content-Type: application/json",
                     "--data", '{"oldPassword": "from-the-page", "newPassword": "changed-by-app"}', f"{base}/api/v1/changePass")
    out["changePassStatus"] = status
    out["requestChangeShown"] = bool(wait(lambda: "changed-by-app" in text_of(d, f"{APP} textarea"), timeout=3))
    d.save_screenshot(f"{shots}/dashboard-state.png")

    click(d, "#state-reset")
    out["resetAll"] = bool(wait(lambda: "correct-horse" in text_of(d, f"{APP} textarea"), timeout=3)) and login("correct-horse", SESSION) == 200
    out["browserErrors"] = errors + severe(d)
finally:
    driver.quit()
print(json.dumps(out))
