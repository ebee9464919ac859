"""Headless Chromium through Selenium, for the browser suites' scripts. Importing it exits the
script with 3 when Selenium or chromedriver is missing, so the Swift suite can say it skipped."""
import os
import shutil
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
except ImportError as error:
    print(f"selenium is not installed: {error}", file=sys.stderr)
    sys.exit(3)

DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not os.path.exists(DRIVER):
    print("chromedriver is not installed (Debian: chromium-driver)", file=sys.stderr)
    sys.exit(3)


def chrome(*arguments, width=1280, height=860):
    """A headless Chromium window of WIDTH x HEIGHT, with its console log kept, and ARGUMENTS."""
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={width},{height}", *arguments]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)
