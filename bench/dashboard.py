#!/usr/bin/env python3
"""The dashboard's goals, measured in one run against the release binary:

  paint    first contentful paint and the routes table shown, with the shipped Stubs and with
           10,000 routes (headless Chromium through Selenium, fresh page each time, medians), and
           how long filtering the 10,000 routes takes to redraw
  live     1,000 requests/s for 10 s with the traffic view open: how far the dashboard's newest
           row lags the server's newest journal entry, sampled every 0.25 s, and the lag after
  idle     plain request throughput (wrk, rounds alternating) with the dashboard on and no stream
           open, against --no-ui; and, for information, with one idle stream reader open

usage: bench/dashboard.py [--binary PATH] [--rounds N] [--seconds S] [--cases pli]
Needs: wrk, chromium and chromium-driver (Debian), selenium (PyPI).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, KeepAlive, Server, build_release, median, route_table, stubd_command, wrk, write_stub_tree  # noqa: E402

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    sys.exit("bench/dashboard.py needs selenium: python3 -m pip install selenium")

FIXTURE = "/api/v1/users/1"


def browser():
    o = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,860"]:
        o.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def start(a, stubs, *extra, name="stubd"):
    log = tempfile.mktemp(prefix=f"{name}-", suffix=".log")
    return Server(name, stubd_command(a.binary, stubs, *extra), log, ready_path="/__stubd/health")


def page_times(d, url, loads):
    """(first contentful paint ms, routes table shown ms) medians over LOADS fresh loads."""
    paints, tables = [], []
    for _ in range(loads):
        d.get("about:blank")
        d.get(url)
        for _ in range(2000):
            t = d.execute_script("const m = performance.getEntriesByName('stubd:routes')[0]; return m ? m.startTime : null")
            if t is not None:
                break
            time.sleep(0.01)
        fcp = None
        for _ in range(200):
            fcp = d.execute_script("const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null")
            if fcp is not None:
                break
            time.sleep(0.01)
        if fcp is None or t is None:
            raise RuntimeError(f"no paint ({fcp}) or no routes table ({t}) at {url}")
        paints.append(fcp)
        tables.append(t)
    print("  loads (paint, table):", [(round(p), round(t)) for p, t in zip(paints, tables)])
    return median(paints), median(tables), max(tables)


def case_paint(a):
    print("## paint: first contentful paint and the routes table shown (ms, median of %d fresh loads)" % a.loads)
    d = browser()
    try:
        shipped = start(a, os.path.join(ROOT, "Stubs"))
        try:
            fcp, table, worst = page_times(d, shipped.url("/__stubd/ui"), a.loads)
            print(f"shipped Stubs ({len(subprocess.run([a.binary, 'routes', os.path.join(ROOT, 'Stubs')], capture_output=True, text=True).stdout.splitlines()) - 1} routes): "
                  f"first paint {fcp:.0f} ms, routes table {table:.0f} ms (worst {worst:.0f})  goal: first paint <= 300 ms")
        finally:
            shipped.stop()
        with tempfile.TemporaryDirectory() as tmp:
            write_stub_tree(tmp, [(f, p, b) for f, p, _, b in route_table(10_000)])
            big = start(a, tmp, name="stubd-10k")
            try:
                fcp, table, worst = page_times(d, big.url("/__stubd/ui"), a.loads)
                print(f"10,000 routes: first paint {fcp:.0f} ms, routes table {table:.0f} ms (worst {worst:.0f})  goal: page loads <= 1000 ms")
                filters = []
                for word in ["p9999", "r42", "items", ""]:
                    filters.append(d.execute_script(
                        "const i = document.getElementById('route-filter'); const t = performance.now();"
                        "i.value = arguments[0]; i.dispatchEvent(new Event('input')); return performance.now() - t", word))
                shown = d.execute_script("return document.querySelectorAll('#routes tbody tr').length")
                print(f"10,000 routes: filter redraw {', '.join(f'{x:.0f}' for x in filters)} ms (rows on a page: {shown})")
            finally:
                big.stop()
    finally:
        d.quit()


def drive(port, rate, seconds, threads=4):
    """RATE requests/s for SECONDS from THREADS keep-alive connections; returns requests sent."""
    sent = [0] * threads
    def run(k):
        c = KeepAlive(port)
        per = rate / threads
        t0 = time.monotonic()
        n = 0
        while True:
            due = t0 + n / per
            now = time.monotonic()
            if due - t0 >= seconds:
                break
            if due > now:
                time.sleep(due - now)
            status, _, _ = c.request(FIXTURE)
            assert status == 200
            n += 1
        sent[k] = n
        c.close()
    workers = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(sent)


def newest(d):
    return d.execute_script("const r = document.querySelector('#traffic tbody tr'); return r ? Number(r.dataset.id) : 0")


def case_live(a):
    print("## live: 1,000 requests/s for 10 s with the traffic view open")
    server = start(a, os.path.join(ROOT, "Stubs"), "--journal-size", "100000")
    d = browser()
    try:
        d.get(server.url("/__stubd/ui#traffic"))
        time.sleep(1)
        base = int(urllib.request.urlopen(server.url("/__stubd/journal/count?scope=all")).read().split(b":")[1].strip(b" }\n"))
        result = {}
        load = threading.Thread(target=lambda: result.update(sent=drive(server.port, 1000, 10)))
        t0 = time.monotonic()
        load.start()
        lags = []
        while load.is_alive():
            time.sleep(0.25)
            body = urllib.request.urlopen(server.url("/__stubd/journal?scope=all&limit=1")).read().decode()
            server_last = int(body.split('"id" : ')[1].split(",")[0]) if '"id" : ' in body else int(body.split('"id": ')[1].split(",")[0])
            lags.append(max(0, server_last - newest(d)))  # read a moment apart: never below 0
        elapsed = time.monotonic() - t0
        sent = result["sent"]
        final = base + sent
        caught, _ = None, None
        t1 = time.monotonic()
        while time.monotonic() - t1 < 10:
            if newest(d) >= final:
                caught = time.monotonic() - t1
                break
            time.sleep(0.02)
        dropped = d.execute_script("return document.getElementById('toast').hidden === false && document.getElementById('toast').textContent.includes('fell behind')")
        lags.sort()
        print(f"sent {sent} requests in {elapsed:.1f} s ({sent / elapsed:.0f}/s); dashboard lag behind the journal: "
              f"median {median(lags):.0f}, p90 {lags[int(len(lags) * 0.9)]:.0f}, max {lags[-1]:.0f} entries (at 1,000/s, 1 entry = 1 ms); "
              f"caught up {'%.0f ms' % (caught * 1000) if caught is not None else 'not within 10 s'} after the last request; dropped: {bool(dropped)}")
    finally:
        d.quit()
        server.stop()


class Reader:
    """An open journal stream that nothing is written to (the dashboard open, no traffic)."""
    def __init__(self, url):
        self.proc = subprocess.Popen(["curl", "-sN", url], stdout=subprocess.DEVNULL)

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def case_idle(a):
    print(f"## idle: plain request throughput (wrk -t1 -c50, {a.rounds} alternating rounds of {a.seconds} s, medians)")
    stubs = os.path.join(ROOT, "Stubs")
    servers = {"ui": start(a, stubs), "no-ui": start(a, stubs, "--no-ui", name="stubd-no-ui"),
               "ui+reader": start(a, stubs, name="stubd-reader")}
    reader = Reader(servers["ui+reader"].url("/__stubd/journal/stream?scope=all"))
    try:
        bodies = {name: urllib.request.urlopen(s.url(FIXTURE)).read() for name, s in servers.items()}
        assert len(set(bodies.values())) == 1, "the servers answer different bytes"
        rps = {name: [] for name in servers}
        for _ in range(a.rounds):
            for name, s in servers.items():
                rps[name].append(wrk(s.url(FIXTURE), a.seconds)["rps"])
        m = {name: median(v) for name, v in rps.items()}
        print(f"dashboard on, no stream open: {m['ui']:.0f}/s; --no-ui: {m['no-ui']:.0f}/s; ratio {m['ui'] / m['no-ui']:.3f} (goal >= 0.98)")
        print(f"with one stream reader open (every request published to it): {m['ui+reader']:.0f}/s; ratio {m['ui+reader'] / m['no-ui']:.3f}")
        print("rounds:", {name: [round(x) for x in v] for name, v in rps.items()})
    finally:
        reader.stop()
        for s in servers.values():
            s.stop()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--seconds", type=int, default=3)
    p.add_argument("--loads", type=int, default=7)
    p.add_argument("--cases", default="pli")
    a = p.parse_args()
    a.binary = a.binary or build_release()
    if "p" in a.cases:
        case_paint(a)
    if "l" in a.cases:
        case_live(a)
    if "i" in a.cases:
        case_idle(a)


if __name__ == "__main__":
    main()
