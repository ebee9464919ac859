#!/usr/bin/env python3
"""Drives the dashboard (/__stubd/ui) in headless Chromium against a live stubd, as a person would.

usage: dashboard_check.py URL main   SCREENSHOT_DIR  (the shipped Stubs, no token)
       dashboard_check.py URL health SCREENSHOT_DIR  (a server whose last reload failed)
       dashboard_check.py URL token  TOKEN           (a server started with --admin-token TOKEN)
Prints one JSON object: each check's outcome and the numbers measured. Exits 3 when Selenium or
chromedriver is missing, so the Swift suite can say it skipped and why.
"""
import json
import os
import subprocess
import sys
import time

from chromium import chrome  # exits 3 without Selenium or chromedriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

base, mode = sys.argv[1], sys.argv[2]
out = {}


def browser(width=1280, height=860):
    return chrome(width=width, height=height)


def curl(*args, timeout=10):
    """Runs curl; returns (status, body)."""
    run = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", *args], capture_output=True, text=True, timeout=timeout)
    body, _, status = run.stdout.rpartition("\n")
    return int(status or 0), body


def wait(predicate, timeout=5.0, step=0.02):
    """Polls until predicate() is truthy; returns (value, seconds waited) or (None, timeout)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            value = predicate()
        except Exception:  # the element is being redrawn: look again
            value = None
        if value:
            return value, time.monotonic() - start
        time.sleep(step)
    return None, timeout


def act(action):
    """Does `action`, again while the page redraws the element it holds (a stale reference)."""
    def attempt():
        action()
        return True
    if not wait(attempt, timeout=3)[0]:
        action()  # once more, to raise what goes wrong


def click(d, css):
    """Clicks the element `css` finds, looking again while the page redraws it."""
    def attempt():
        d.find_element(By.CSS_SELECTOR, css).click()
        return True
    return wait(attempt, timeout=3)[0]


def row(d, route):
    return d.find_element(By.CSS_SELECTOR, f'#routes tr[data-route="{route}"]')


def tab(d, name):
    d.find_element(By.CSS_SELECTOR, f'#tabs button[data-view="{name}"]').click()


def newest_row(d, path):
    for r in d.find_elements(By.CSS_SELECTOR, "#traffic tbody tr"):
        cells = r.find_elements(By.TAG_NAME, "td")
        if len(cells) > 2 and cells[2].text == path:
            return r
    return None


def main_checks(shots):
    d = browser()
    try:
        start = time.monotonic()
        d.get(base + "/__stubd/ui")
        wait(lambda: d.find_elements(By.CSS_SELECTOR, '#routes tr[data-route="app/users"]'))
        out["loadSeconds"] = round(time.monotonic() - start, 3)
        paint = d.execute_script("const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null")
        out["firstPaintMs"] = paint
        out["csp"] = d.execute_script("return document.querySelectorAll('script:not([src])').length") == 0

        # Variant 500 for everyone: curl gets 500.
        act(lambda: Select(row(d, "app/users").find_element(By.CSS_SELECTOR, "select.variant")).select_by_value("500"))
        status, _ = wait(lambda: curl(base + "/api/v1/users")[0] == 500, timeout=3)
        out["variant500"] = bool(status)
        act(lambda: row(d, "app/users").find_element(By.CSS_SELECTOR, "button.clear").click())
        cleared, _ = wait(lambda: curl(base + "/api/v1/users")[0] == 200, timeout=3)
        out["clearedBackTo200"] = bool(cleared)

        # A change made elsewhere (another dashboard, a test) shows here within a second; first the
        # page's own refresh after Clear is let finish, so only the change's notice can show it.
        time.sleep(0.6)
        curl("-X", "PUT", "-d", '{"variant": "503"}', base + "/__stubd/routes/app/users")
        seen, seconds = wait(lambda: Select(row(d, "app/users").find_element(By.CSS_SELECTOR, "select.variant")).first_selected_option
                             .get_attribute("value") == "503", timeout=3)
        out["changeFromElsewhere"] = bool(seen)
        out["changeFromElsewhereSeconds"] = round(seconds, 3)
        curl("-X", "DELETE", base + "/__stubd/routes/app/users")

        # Hold: a waiting curl, held 1, release, curl finishes with its answer.
        wait(lambda: row(d, "app/users").find_element(By.CSS_SELECTOR, "button.clear").get_attribute("disabled") is not None, timeout=3)
        act(lambda: row(d, "app/users").find_element(By.CSS_SELECTOR, "input.hold").click())
        wait(lambda: row(d, "app/users").find_element(By.CSS_SELECTOR, "input.hold").is_selected() and
             "overridden" in row(d, "app/users").get_attribute("class"), timeout=3)
        waiting = subprocess.Popen(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/api/v1/users"], stdout=subprocess.PIPE, text=True)
        held, _ = wait(lambda: row(d, "app/users").find_element(By.CSS_SELECTOR, "td.held").text == "1", timeout=3)
        out["heldOne"] = bool(held)
        out["curlWaitedWhileHeld"] = waiting.poll() is None
        d.save_screenshot(os.path.join(shots, "dashboard-routes.png"))
        act(lambda: row(d, "app/users").find_element(By.CSS_SELECTOR, "button.release").click())
        try:
            answer = waiting.communicate(timeout=5)[0]
        except subprocess.TimeoutExpired:
            waiting.kill()
            answer = "timeout"
        out["releasedCurlStatus"] = answer
        act(lambda: row(d, "app/users").find_element(By.CSS_SELECTOR, "input.hold").click())  # hold off again
        wait(lambda: not row(d, "app/users").find_element(By.CSS_SELECTOR, "input.hold").is_selected(), timeout=3)

        # Live traffic: a request shows within a second.
        tab(d, "traffic")
        curl(base + "/api/v1/users/2?live=1")
        sent = time.monotonic()
        # The row shows the query too.
        shown, _ = wait(lambda: newest_row(d, "/api/v1/users/2?live=1"), timeout=3, step=0.01)
        out["liveRowSeconds"] = round(time.monotonic() - sent, 3) if shown else None

        # A 404 row shows its near misses and why each did not match.
        curl(base + "/api/v1/user/1")
        miss, _ = wait(lambda: newest_row(d, "/api/v1/user/1"), timeout=3)
        act(lambda: newest_row(d, "/api/v1/user/1").click())
        reasons = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#detail .near .why")]
        routes = d.find_element(By.ID, "detail").text
        out["nearMisses"] = {"shown": "app/user" in routes, "reasons": reasons}

        # Why a variant was chosen: the when that held.
        curl(base + "/api/v1/users/3")
        chosen, _ = wait(lambda: newest_row(d, "/api/v1/users/3"), timeout=3)
        act(lambda: newest_row(d, "/api/v1/users/3").click())
        out["whyChosen"] = d.find_element(By.ID, "detail").text.count("its when held") == 1 and bool(d.find_elements(By.CSS_SELECTOR, "#detail pre.when"))
        out["curlCommand"] = d.find_element(By.CSS_SELECTOR, "#detail pre.curl").text
        click(d, "#detail button.copy-curl")

        # A method with shell characters is quoted like every other part of the command.
        curl("-X", "BREW`id`", base + "/api/v1/users")
        brew, _ = wait(lambda: next((r for r in d.find_elements(By.CSS_SELECTOR, "#traffic tbody tr")
                                     if r.find_elements(By.TAG_NAME, "td")[1].text.upper() == "BREW`ID`"), None), timeout=3)
        if brew:
            act(lambda: next(r for r in d.find_elements(By.CSS_SELECTOR, "#traffic tbody tr")
                             if r.find_elements(By.TAG_NAME, "td")[1].text.upper() == "BREW`ID`").click())
            out["oddMethodCurl"] = d.find_element(By.CSS_SELECTOR, "#detail pre.curl").text

        # Everything from requests stays text.
        payload = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>"
        curl("-X", "POST", "-H", "X-Evil: " + payload, "-H", "Content-Type: application/json", "--data-binary", json.dumps({"name": payload}),
             base + "/api/v1/changePass")
        evil, _ = wait(lambda: newest_row(d, "/api/v1/changePass"), timeout=3)
        act(lambda: newest_row(d, "/api/v1/changePass").click())
        time.sleep(0.3)
        detail = d.find_element(By.ID, "detail")
        out["xss"] = {
            "title": d.title,
            "imagesInDetail": len(detail.find_elements(By.TAG_NAME, "img")),
            "scriptsInPage": d.execute_script("return document.scripts.length"),
            "payloadShownAsText": payload in detail.text,
        }
        d.save_screenshot(os.path.join(shots, "dashboard-traffic.png"))

        # Sessions: one appears, and clearing it removes its overrides.
        curl("-H", "X-Stub-Session: qa-device-1", base + "/api/v1/users")
        curl("-X", "PUT", "-H", "X-Stub-Session: qa-device-1", "-d", '{"variant": "200-empty", "delay": {"ms": 1500}}', base + "/__stubd/routes/app/users")
        tab(d, "sessions")
        card, _ = wait(lambda: d.find_elements(By.CSS_SELECTOR, '#sessions .card[data-session="qa-device-1"]'), timeout=3)
        listed, _ = wait(lambda: "variant 200-empty" in d.find_element(By.CSS_SELECTOR, '#sessions .card[data-session="qa-device-1"]').text, timeout=3)
        out["sessionListed"] = bool(card) and bool(listed)
        d.save_screenshot(os.path.join(shots, "dashboard-sessions.png"))
        click(d, '#sessions .card[data-session="qa-device-1"] button.clear-session')
        gone, _ = wait(lambda: curl("-H", "X-Stub-Session: qa-device-1", base + "/__stubd/routes/app/users")[1].count('"override": null') == 1, timeout=3)
        out["sessionCleared"] = bool(gone)

        # Health.
        tab(d, "health")
        ok, _ = wait(lambda: "Stub set" in d.find_element(By.ID, "health").text, timeout=3)
        out["health"] = bool(ok) and "ok" in d.find_element(By.ID, "health-badge").text
        d.save_screenshot(os.path.join(shots, "dashboard-health.png"))

        # The dashboard's own calls are not journaled.
        _, journal = curl(base + "/__stubd/journal?scope=all&limit=10000")
        out["adminCallsJournaled"] = sum(1 for r in json.loads(journal)["requests"] if r["path"].startswith("/__stubd"))
        out["browserErrors"] = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]

        # Leaving and opening the page again and again: each left page gives its stream back, so
        # the browser's six connections to one server never run out.
        served, slowest = 0, 0.0
        for _ in range(8):
            d.get("about:blank")
            opened = time.monotonic()
            d.get(base + "/__stubd/ui")
            shown, _ = wait(lambda: d.find_elements(By.CSS_SELECTOR, '#routes tr[data-route="app/users"]'), timeout=4)
            slowest = max(slowest, time.monotonic() - opened)
            served += 1 if shown else 0
        out["pageOpenedEightTimes"] = served
        out["slowestOpenSeconds"] = round(slowest, 3)
    finally:
        d.quit()

    # A phone-sized screen.
    phone = browser(390, 844)
    try:
        phone.get(base + "/__stubd/ui#traffic")
        wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#traffic tbody tr"), timeout=3)
        out["phoneWidthFits"] = phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
        phone.save_screenshot(os.path.join(shots, "dashboard-phone.png"))
        phone_routes(phone, shots)
    finally:
        phone.quit()


def phone_routes(phone, shots):
    """The routes at 390 px: every control of every row on screen and the one hit at its centre,
    no path segment wrapped inside itself, and a variant picked and cleared with a finger's reach."""
    tab(phone, "routes")
    wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#routes tr[data-route]"), timeout=3)
    out["phoneRoutesWidthFits"] = phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    # Reached without scrolling sideways: the table's box may scroll down, never across.
    out["phoneRoutesSideScroll"] = phone.execute_script(
        "const wrap = document.getElementById('routes').closest('.table-wrap'); return wrap.scrollWidth - wrap.clientWidth")
    out["phoneControls"], out["phoneControlsOff"] = phone.execute_script("""
        const w = window.innerWidth, off = [];
        const wrap = document.getElementById('routes').closest('.table-wrap');
        const controls = document.querySelectorAll('#routes tr[data-route] select, #routes tr[data-route] input, #routes tr[data-route] button');
        for (const c of controls) {
          c.scrollIntoView({ block: 'center' });
          const r = c.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          if (!(r.width > 0 && r.left >= 0 && r.right <= w + 1 && hit && (hit === c || c.contains(hit)) && wrap.scrollLeft === 0))
            off.push((c.getAttribute('aria-label') || c.className) + ' at ' + Math.round(r.left) + '..' + Math.round(r.right) + ' scrolled ' + wrap.scrollLeft);
          wrap.scrollLeft = 0;
        }
        return [controls.length, off];""")
    # A segment (the text between two break opportunities) spread over two lines was cut in the middle.
    out["phonePathsCut"] = phone.execute_script("""
        const cut = [];
        for (const cell of document.querySelectorAll('#routes td.path')) {
          for (const node of cell.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (tops.size > 1 && range.getBoundingClientRect().width < cell.clientWidth) cut.push(node.textContent);
          }
        }
        return cut;""")
    phone.save_screenshot(os.path.join(shots, "dashboard-phone-routes.png"))
    select = row(phone, "app/users").find_element(By.CSS_SELECTOR, "select.variant")
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", select)
    act(lambda: Select(row(phone, "app/users").find_element(By.CSS_SELECTOR, "select.variant")).select_by_value("500"))
    status, _ = wait(lambda: curl(base + "/api/v1/users")[0] == 500, timeout=3)
    out["phoneVariant500"] = bool(status)
    click(phone, '#routes tr[data-route="app/users"] button.clear')
    cleared, _ = wait(lambda: curl(base + "/api/v1/users")[0] == 200, timeout=3)
    out["phoneCleared"] = bool(cleared)


def token_checks(token):
    out["apiWithoutToken"] = curl(base + "/__stubd/routes")[0]
    d = browser()
    try:
        d.get(base + "/__stubd/ui")
        asked, _ = wait(lambda: d.execute_script("return document.getElementById('token-dialog').open"), timeout=3)
        out["asked"] = bool(asked)
        box = d.find_element(By.ID, "token-input")
        box.send_keys("wrong")
        d.find_element(By.CSS_SELECTOR, "#token-form button").click()
        refused, _ = wait(lambda: d.execute_script("return document.getElementById('token-dialog').open && !document.getElementById('token-error').hidden"), timeout=3)
        out["wrongTokenRefused"] = bool(refused)
        box = d.find_element(By.ID, "token-input")
        box.clear()
        box.send_keys(token)
        d.find_element(By.CSS_SELECTOR, "#token-form button").click()
        rows, _ = wait(lambda: d.find_elements(By.CSS_SELECTOR, "#routes tr[data-route]"), timeout=3)
        out["routesAfterToken"] = len(rows or [])
        out["tokenInURL"] = token in d.current_url
        out["tokenInRequestURLs"] = d.execute_script(
            "return performance.getEntriesByType('resource').some(e => e.name.includes(arguments[0]))", token)
        out["tokenInSessionStorage"] = d.execute_script("return sessionStorage.getItem('stubd.token')") == token
    finally:
        d.quit()


def health_checks(shots):
    """The health view of a server whose last reload failed."""
    d = browser()
    try:
        d.get(base + "/__stubd/ui#health")
        # Read in one call: the view is redrawn as the page's calls come back.
        problems, _ = wait(lambda: d.execute_script("return [...document.querySelectorAll('#health .problems li')].map(li => li.textContent)"), timeout=4)
        out["problems"] = problems or []
        out["badge"] = d.execute_script("return document.getElementById('health-badge').textContent")
        out["stillServing"] = d.execute_script("return document.getElementById('health').textContent.includes('still served')")
        d.save_screenshot(os.path.join(shots, "dashboard-health-degraded.png"))
    finally:
        d.quit()


if mode == "main":
    main_checks(sys.argv[3])
elif mode == "health":
    health_checks(sys.argv[3])
else:
    token_checks(sys.argv[3])
print(json.dumps(out))
