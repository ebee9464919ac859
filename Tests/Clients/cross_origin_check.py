#!/usr/bin/env python3
"""Attacks a live stubd's admin API from headless Chromium, as a web page on another site would.

usage: cross_origin_check.py PORT
The stubd on 127.0.0.1:PORT serves /attack (an HTML stub, see AdminGuardBrowserTests) and has an
override set on app/users. Chromium resolves evil.example to 127.0.0.1, so:
  1. http://evil.example:PORT/attack is a page of another origin than http://127.0.0.1:PORT: it
     POSTs /__stubd/reset there with a no-cors fetch and with a form (neither needs a preflight),
     PUTs an override with a CORS fetch (preflighted), and tries to read the journal;
  2. the same page is also the admin API's own origin through the rebound name: it reads
     /__stubd/journal and PUTs an override same-origin.
Prints one JSON object with what the page saw and what the admin API holds afterwards (read with
curl, which is no page). Exits 3 when Selenium or chromedriver is missing.
"""
import json
import subprocess
import sys

from chromium import chrome  # exits 3 without Selenium or chromedriver

port = int(sys.argv[1])
victim = f"http://127.0.0.1:{port}"


def curl(*args):
    run = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", *args], capture_output=True, text=True, timeout=10)
    body, _, status = run.stdout.rpartition("\n")
    return int(status or 0), body


driver = chrome("--host-resolver-rules=MAP evil.example 127.0.0.1")
out = {}
try:
    driver.set_script_timeout(20)
    driver.get(f"http://evil.example:{port}/attack")
    out["page"] = driver.execute_script("return location.origin")
    out["seen"] = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const victim = arguments[0];
        const seen = {};
        const status = (p) => p.then(r => r.type === 'opaque' ? 'opaque' : r.status).catch(e => 'blocked');
        (async () => {
            seen.crossNoCorsReset = await status(fetch(victim + '/__stubd/reset', {method: 'POST', mode: 'no-cors'}));
            seen.crossCorsPut = await status(fetch(victim + '/__stubd/routes/app/users',
                {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: '{"variant": "500"}'}));
            seen.crossRead = await status(fetch(victim + '/__stubd/journal'));
            const frame = document.createElement('iframe');
            frame.name = 'sink';
            document.body.appendChild(frame);
            const form = document.createElement('form');
            form.method = 'POST'; form.action = victim + '/__stubd/reset'; form.target = 'sink'; form.enctype = 'text/plain';
            document.body.appendChild(form);
            const loaded = new Promise(r => frame.onload = r);
            form.submit();
            await Promise.race([loaded, new Promise(r => setTimeout(r, 3000))]);
            const journal = await fetch('/__stubd/journal');
            seen.reboundReadStatus = journal.status;
            seen.reboundReadLeaks = (await journal.text()).includes('Bearer secret-token');
            seen.reboundPut = await status(fetch('/__stubd/routes/app/users',
                {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: '{"variant": "500"}'}));
            done(seen);
        })();
        """, victim)
finally:
    driver.quit()
status, body = curl(f"{victim}/__stubd/routes/app/users")
out["overrideAfter"] = {"status": status, "body": body[:2000]}
out["stubAfter"] = curl(f"{victim}/api/users")[0]
print(json.dumps(out))
