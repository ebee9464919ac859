#!/usr/bin/env python3
"""Loads the dashboard over HTTPS in headless Chromium and reports the protocol the page and each
of its admin API calls came over (the Resource Timing API's nextHopProtocol: "h2" for HTTP/2).

usage: dashboard_h2.py HTTPS_URL
Prints one JSON object. Exits 3 when Selenium or chromedriver is missing.
"""
import json
import sys
import time

from chromium import chrome  # exits 3 without Selenium or chromedriver
from selenium.webdriver.common.by import By

base = sys.argv[1]
# The server's certificate comes from stubd's own authority, which this throwaway profile does not trust.
d = chrome("--ignore-certificate-errors")
out = {}
try:
    d.get(base + "/__stubd/ui")
    start = time.monotonic()
    while time.monotonic() - start < 10 and not d.find_elements(By.CSS_SELECTOR, '#routes tr[data-route="app/users"]'):
        time.sleep(0.02)
    out["routesShown"] = bool(d.find_elements(By.CSS_SELECTOR, '#routes tr[data-route="app/users"]'))
    out["page"] = d.execute_script("return performance.getEntriesByType('navigation')[0].nextHopProtocol")
    out["resources"] = d.execute_script(
        "return performance.getEntriesByType('resource').map(e => [e.name.replace(location.origin, ''), e.nextHopProtocol])")
    out["browserErrors"] = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
finally:
    d.quit()
print(json.dumps(out))
