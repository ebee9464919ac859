#!/usr/bin/env python3
"""The cost of stubd's request path against reference servers serving the same bytes at the same
URL, measured in one run. The goal is to see how far stubd is from the floor (a bare
libmicrohttpd server with the same daemon flags, bench/floor.c) and where it stands among
nginx and the Python mock servers people use instead (pytest-httpserver, mockintosh).

Throughput is wrk -t1 -c50 over keep-alive, rounds alternating between the servers, medians
reported; stubd runs with --threads 1 --log off --no-watch and the journal on, like the floor's
one polling thread. Cases:
  a  small fixture (Stubs/app/user/200.json)     b  100 KB JSON fixture
  c  --log text to a file, ratio to the floor     d  10,000-route table against a 10-route one
  e  404 with a 1,000-character segment on the 10,000-route table (server time per request)
  f  spawn to first 200 and idle RSS, shipped Stubs and 10,000 routes
  g  RSS after 10,000 and after 1,000,000 requests (skipped with --quick)
  h  POST /__stubd/reload of 10,000 routes, and the worst GET latency while it runs

usage: bench/request-path.py [--binary PATH] [--quick] [--rounds N] [--seconds S] [--cases abcdefgh]

Needs: wrk, gcc, pkg-config and libmicrohttpd-dev (apt-get install wrk gcc pkg-config
libmicrohttpd-dev); optional nginx (apt-get install nginx-light) and a venv with the Python
servers (see VENV_HINT below). A reference that is missing shows "-" in its column.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (BENCH, ROOT, KeepAlive, Server, build_release, compile_c, cpu_seconds, free_port, median,  # noqa: E402
                    pkg_config, route_table, send_requests, spread_script, stubd_command, wrk, write_stub_tree)

FIXTURE = "/api/v1/users/1"
VENV = os.environ.get("STUBD_BENCH_VENV", "/tmp/stubd-bench-venv")
VENV_HINT = (f"python3 -m venv {VENV} && {VENV}/bin/pip install pytest-httpserver mockintosh 'markupsafe<2.1' 'tornado<6.5'"
             "  (mockintosh 0.13 imports only with markupsafe<2.1 and answers 500 with tornado>=6.5)")
REFERENCES = ["floor", "nginx", "pytest-httpserver", "mockintosh"]
SLOW = {"pytest-httpserver", "mockintosh"}
LONG_SEGMENT_404 = "/api/v1/" + "x" * 1000 + "/items"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", help="stubd binary (default: swift build -c release)")
    p.add_argument("--quick", action="store_true", help="fewer, shorter rounds; skip case g")
    p.add_argument("--rounds", type=int)
    p.add_argument("--seconds", type=int)
    p.add_argument("--cases", default="abcdefgh")
    a = p.parse_args()
    a.rounds = a.rounds or (3 if a.quick else 5)
    a.seconds = a.seconds or (2 if a.quick else 4)
    a.slow_rounds, a.slow_seconds = (2, 2) if a.quick else (3, 3)
    if a.quick:
        a.cases = a.cases.replace("g", "")
    return a


def check_tools(a):
    for tool, hint in (("wrk", "apt-get install wrk"), ("gcc", "apt-get install gcc")):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed: {hint}")
    a.nginx = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)
    if not a.nginx:
        print("nginx is not installed, its column shows '-': apt-get install nginx-light")
    a.venv_python = os.path.join(VENV, "bin", "python")
    probe = [a.venv_python, "-c", "import pytest_httpserver, mockintosh"]
    if not os.path.exists(a.venv_python) or subprocess.run(probe, capture_output=True).returncode != 0:
        print(f"no venv with pytest-httpserver and mockintosh at {VENV}; their columns show '-'. Make it with:\n  {VENV_HINT}")
        a.venv_python = None


def prepare(a):
    """Work directory (readable by nginx's worker user), the floor binary and the generated stubs."""
    a.work = tempfile.mkdtemp(prefix="stubd-request-path-")
    os.chmod(a.work, 0o755)
    a.small_stubs = os.path.join(ROOT, "Stubs")
    a.small_fixture = os.path.join(a.small_stubs, "app", "user", "200.json")
    items, body = [], b""
    while len(body) < 100 * 1024:
        items.append({"id": len(items), "name": f"User {len(items)}", "email": f"user{len(items)}@example.com",
                      "tags": ["alpha", "beta", "gamma"], "active": len(items) % 3 == 0})
        body = json.dumps({"data": items, "error": None}, indent=2).encode() + b"\n"
    a.big_stubs = write_stub_tree(os.path.join(a.work, "big"), [("user", "/users/{id}", body)])
    a.big_fixture = os.path.join(a.big_stubs, "app", "user", "200.json")
    a.tables = {}
    for n in (10, 10000):
        table = route_table(n)
        write_stub_tree(os.path.join(a.work, f"routes{n}"), [(f, p, b) for f, p, _, b in table])
        a.tables[n] = (os.path.join(a.work, f"routes{n}"), ["/api/v1" + path for _, _, path, _ in table])
    for root, _, files in os.walk(a.work):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    a.floor = compile_c("floor.c", a.work, *pkg_config("libmicrohttpd"))


def start_stubd(a, stubs, *args, name="stubd", log="off", stdout_path=None, ready=FIXTURE):
    path = stdout_path or os.path.join(a.work, f"{name}-{time.monotonic_ns()}.out")
    return Server(name, stubd_command(a.binary, stubs, *args, log=log), path, ready_path=ready)


def start_floor(a, fixture, ctype):
    return Server("floor", [a.floor, "0", fixture, ctype], os.path.join(a.work, "floor.out"), ready_path=FIXTURE)


def start_nginx(a, fixture, ctype, sendfile):
    name = f"nginx-sendfile-{sendfile}"
    prefix = os.path.join(a.work, name)
    os.makedirs(prefix, exist_ok=True)
    port = free_port()
    conf = f"""daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    sendfile {sendfile};
    keepalive_timeout 65;
    keepalive_requests 1000000;
    server_tokens off;
    etag off;
    types {{ }}
    default_type "{ctype}";
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    server {{
        listen 127.0.0.1:{port};
        location = {FIXTURE} {{ alias {fixture}; }}
    }}
}}
"""
    with open(os.path.join(prefix, "nginx.conf"), "w") as f:
        f.write(conf)
    cmd = [a.nginx, "-p", prefix, "-e", os.path.join(prefix, "error.log"), "-c", os.path.join(prefix, "nginx.conf")]
    return Server(f"nginx (sendfile {sendfile})", cmd, os.path.join(prefix, "out"), port=port, ready_path=FIXTURE)


def start_pytest_httpserver(a, fixture, ctype):
    cmd = [a.venv_python, os.path.join(BENCH, "pytest-httpserver-fixture.py"), "--path", FIXTURE, "--file", fixture,
           "--content-type", ctype]
    return Server("pytest-httpserver", cmd, os.path.join(a.work, "pytest-httpserver.out"), ready_path=FIXTURE)


def start_mockintosh(a, fixture, ctype):
    """Mockintosh with a generated config beside a copy of the fixture (body files are relative to it)."""
    port = free_port()
    config_dir = tempfile.mkdtemp(prefix="mockintosh-", dir=a.work)
    shutil.copyfile(fixture, os.path.join(config_dir, "body.json"))
    config = {"services": [{"name": "bench", "port": port, "endpoints": [{
        "path": FIXTURE, "method": "GET",
        "response": {"status": 200, "headers": {"Content-Type": ctype}, "body": "@body.json", "useTemplating": False}}]}]}
    path = os.path.join(config_dir, "mockintosh.json")
    with open(path, "w") as f:
        json.dump(config, f)
    cmd = [os.path.join(VENV, "bin", "mockintosh"), "-q", "-b", "127.0.0.1", path]
    return Server("mockintosh", cmd, os.path.join(a.work, "mockintosh.out"), port=port, ready_path=FIXTURE)


def start_references(a, fixture, ctype, servers):
    """Appends (column, server) pairs to SERVERS for every reference that is installed, nginx
    under both sendfile settings (appended one by one, so that the caller stops what started)."""
    servers.append(("floor", start_floor(a, fixture, ctype)))
    if a.nginx:
        for setting in ("on", "off"):
            servers.append((f"nginx sendfile {setting}", start_nginx(a, fixture, ctype, setting)))
    if a.venv_python:
        servers.append(("pytest-httpserver", start_pytest_httpserver(a, fixture, ctype)))
        servers.append(("mockintosh", start_mockintosh(a, fixture, ctype)))


def verify_same_body(servers, path, expected, ctype=None):
    """Every server answers PATH with 200, exactly EXPECTED's bytes and Content-Type CTYPE, or
    the run stops here."""
    for name, server in servers:
        status, body, headers = server.get(path)
        if status != 200 or body != expected:
            sys.exit(f"{name} does not serve the same bytes as stubd at {path}: status {status}, "
                     f"{len(body)} bytes against {len(expected)}; not timing it")
        if ctype and headers["Content-Type"] != ctype:
            sys.exit(f"{name} sends Content-Type {headers['Content-Type']!r}, stubd {ctype!r}; not timing it")


def alternate(a, servers, paths, script=None, cpu=None):
    """Rounds of wrk alternating over SERVERS ((name, server) pairs; PATHS maps name to the URL
    path); slow Python servers only take part in the first slow_rounds, with slow_seconds each.
    Returns {name: [req/s per round]}; with CPU, also fills CPU[name] with the server's CPU
    microseconds per request in each round (a steadier measure than req/s when the load generator
    shares the machine's two cores)."""
    results = {name: [] for name, _ in servers}
    for r in range(a.rounds):
        for name, server in servers:
            slow = any(name.startswith(s) for s in SLOW)
            if slow and r >= a.slow_rounds:
                continue
            before = cpu_seconds(server.pid)
            res = wrk(server.url(paths[name]), a.slow_seconds if slow else a.seconds, script=script)
            if cpu is not None and res["requests"]:
                cpu.setdefault(name, []).append((cpu_seconds(server.pid) - before) / res["requests"] * 1e6)
            if res["non2xx"] or res["errors"]:
                print(f"  warning: {name}: {res['non2xx']} non-2xx answers, {res['errors']} socket errors")
            results[name].append(res["rps"])
            print(f"  round {r + 1}: {name:24s} {res['rps']:10.0f} req/s", flush=True)
    return results


def stop_all(servers):
    for _, server in servers:
        server.stop()


def fold_nginx(medians):
    """Keep nginx at its best sendfile setting under the column "nginx"; returns the note."""
    runs = {k: v for k, v in medians.items() if k.startswith("nginx sendfile")}
    if not runs:
        return ""
    best = max(runs, key=runs.get)
    medians["nginx"] = runs[best]
    note = f"nginx best: {best.split(' ', 1)[1]} ({', '.join(f'{k[6:]} {v:.0f}' for k, v in runs.items())})"
    for k in runs:
        del medians[k]
    return note


def case_throughput(a, label, stubs, fixture):
    """Cases a and b: stubd and every reference serving FIXTURE at /api/v1/users/1."""
    print(f"case {label}", flush=True)
    stubd = start_stubd(a, stubs)
    status, expected, headers = stubd.get(FIXTURE)
    with open(fixture, "rb") as f:
        assert status == 200 and expected == f.read(), "stubd does not serve the fixture file's bytes"
    servers = [("stubd", stubd)]
    try:
        start_references(a, fixture, headers["Content-Type"], servers)
        verify_same_body(servers, FIXTURE, expected, headers["Content-Type"])
        cpu = {}
        results = alternate(a, servers, {name: FIXTURE for name, _ in servers}, cpu=cpu)
    finally:
        stop_all(servers)
    medians = {name: statistics.median(v) for name, v in results.items()}
    note = fold_nginx(medians)
    return [dict(medians, case=label, metric="req/s", ratios=True, note=note), cpu_row(label, cpu)]


def cpu_row(label, cpu):
    """The server CPU per request of each server (nginx at its cheaper sendfile setting); its
    ratio columns read as stubd's CPU over the reference's, so lower is better."""
    # The Python servers are left out: their launchers start and end helper processes, which
    # makes the per-process CPU count meaningless.
    medians = {name: statistics.median(v) for name, v in cpu.items() if not any(name.startswith(s) for s in SLOW)}
    nginx = {k: v for k, v in medians.items() if k.startswith("nginx sendfile")}
    if nginx:
        medians["nginx"] = min(nginx.values())
        for k in nginx:
            del medians[k]
    return dict(medians, case=f"{label.split(' ', 1)[0]} server CPU per request (lower is better)", metric="us/request", ratios=True)


def case_log(a):
    """Case c: --log text with stdout going to a file, against the floor."""
    label = "c log text to a file, 216 B"
    print(f"case {label}", flush=True)
    out = os.path.join(a.work, "access.log")
    stubd = start_stubd(a, a.small_stubs, log="text", stdout_path=out)
    servers = [("stubd", stubd)]
    try:
        status, expected, headers = stubd.get(FIXTURE)
        servers.append(("floor", start_floor(a, a.small_fixture, headers["Content-Type"])))
        verify_same_body(servers, FIXTURE, expected)
        cpu = {}
        results = alternate(a, servers, {"stubd": FIXTURE, "floor": FIXTURE}, cpu=cpu)
    finally:
        stop_all(servers)
    lines = sum(1 for _ in open(out, "rb"))
    os.remove(out)
    medians = {name: statistics.median(v) for name, v in results.items()}
    return [dict(medians, case=label, metric="req/s", ratios=True, note=f"{lines} log lines written"), cpu_row(label, cpu)]


def case_routes(a):
    """Case d: throughput over all routes of a 10,000-route table against a 10-route one."""
    print("case d route-table scale", flush=True)
    servers, scripts = [], {}
    try:
        for n in (10, 10000):
            stubs, paths = a.tables[n]
            server = start_stubd(a, stubs, name=f"stubd {n} routes", ready=paths[0])
            servers.append((f"{n} routes", server))
            for p in paths[:: max(1, n // 200)]:
                status, body, _ = server.get(p)
                assert status == 200, f"{p} answered {status} on the {n}-route table"
            order = paths[:]
            random.Random(1).shuffle(order)  # spread over the table, literal and parameter routes mixed
            scripts[n] = spread_script(a.work, order, f"spread{n}.lua")
        results = {name: [] for name, _ in servers}
        for r in range(a.rounds):
            for (name, server), n in zip(servers, (10, 10000)):
                res = wrk(server.url("/"), a.seconds, script=scripts[n])
                assert res["non2xx"] == 0, f"{name}: {res['non2xx']} answers were not 2xx"
                results[name].append(res["rps"])
                print(f"  round {r + 1}: {name:24s} {res['rps']:10.0f} req/s", flush=True)
    finally:
        stop_all(servers)
    small, big = (statistics.median(results[k]) for k in ("10 routes", "10000 routes"))
    return [dict(case="d 10-route table, all routes", metric="req/s", stubd=small),
            dict(case="d 10,000-route table, all routes", metric="req/s", stubd=big),
            dict(case="d 10,000 / 10 routes", metric="ratio", stubd=big / small)]


def server_time_404(server, ok_path, samples, budget_s):
    """Median latency of the long-segment 404 minus that of a small 200, both sequential on one
    keep-alive connection, interleaved; at most SAMPLES 404s or BUDGET_S seconds."""
    ka = KeepAlive(server.port, timeout=60)
    try:
        for _ in range(20):
            ka.request(ok_path)
        lat404, lat200 = [], []
        deadline = time.monotonic() + budget_s
        while len(lat404) < samples and (time.monotonic() < deadline or len(lat404) < 3):
            status, _, t = ka.request(LONG_SEGMENT_404)
            assert status == 404, f"the long-segment path answered {status}"
            lat404.append(t)
            for _ in range(10):
                status, _, t = ka.request(ok_path)
                assert status == 200
                lat200.append(t)
    finally:
        ka.close()
    return (median(lat404) - median(lat200)) * 1000, median(lat200) * 1000, len(lat404)


def case_404(a):
    """Case e: the 404 for a path with one 1,000-character segment, server time per request."""
    print("case e 404 with a 1,000-character segment", flush=True)
    rows = []
    for n in (10000, 10):
        stubs, paths = a.tables[n]
        server = start_stubd(a, stubs, ready=paths[0])
        try:
            ms, base, count = server_time_404(server, paths[0], 15 if n == 10 else (5 if a.quick else 12),
                                              5 if a.quick else 12)
        finally:
            server.stop()
        print(f"  {n} routes: 404 minus 200 {ms:.2f} ms (200 alone {base:.3f} ms), {count} 404s", flush=True)
        label = "e 404, 1,000-char segment, 10,000 routes" if n == 10000 else "e same 404 on the 10-route table"
        rows.append(dict(case=label, metric="ms/request", stubd=ms, note=f"median of {count}; small 200 {base:.2f} ms"))
    return rows


def time_to_first_200(make, path):
    """Seconds from spawning a server (MAKE returns it, unstarted-ready) to its first 200 on PATH,
    and its RSS in MB half a second later."""
    server = make()
    try:
        deadline = time.monotonic() + 60
        while server.get(path)[0] != 200:
            assert time.monotonic() < deadline, f"{server.name} gave no 200 on {path} within 60 s"
            time.sleep(0.001)
        elapsed = time.monotonic() - server.started
        time.sleep(0.5)
        return elapsed, server.rss()
    finally:
        server.stop()


def case_start(a):
    """Case f: spawn to first 200, and idle RSS, for the shipped Stubs and the 10,000-route table;
    the floor serving the same fixture is the reference."""
    print("case f start to first 200, idle RSS", flush=True)
    runs = 2 if a.quick else 3
    big_stubs, big_paths = a.tables[10000]
    subjects = [("shipped Stubs", a.small_stubs, FIXTURE), ("10,000 routes", big_stubs, big_paths[0])]
    rows = []
    ctype = "application/json; charset=utf-8"
    floor = [time_to_first_200(lambda: start_floor_unready(a, a.small_fixture, ctype), FIXTURE) for _ in range(runs)]
    for label, stubs, path in subjects:
        make = lambda: start_stubd(a, stubs, ready=None)  # noqa: E731
        res = [time_to_first_200(make, path) for _ in range(runs)]
        start_ms, rss = median([r[0] for r in res]) * 1000, median([r[1] for r in res])
        print(f"  {label}: first 200 after {start_ms:.1f} ms, idle RSS {rss:.1f} MB", flush=True)
        ref = {"floor": median([r[0] for r in floor]) * 1000} if label == "shipped Stubs" else {}
        rows.append(dict(ref, case=f"f spawn to first 200, {label}", metric="ms", stubd=start_ms, ratios=bool(ref),
                         note=f"median of {runs}"))
        ref = {"floor": median([r[1] for r in floor])} if label == "shipped Stubs" else {}
        rows.append(dict(ref, case=f"f idle RSS after start, {label}", metric="MB", stubd=rss, ratios=bool(ref)))
    return rows


def start_floor_unready(a, fixture, ctype):
    return Server("floor", [a.floor, "0", fixture, ctype], os.path.join(a.work, "floor.out"))


def case_memory(a):
    """Case g: RSS after the first 10,000 requests (sent one by one on a keep-alive connection)
    and after 1,000,000 (then wrk runs of up to 10 s until their reported counts add up, at most 120 s)."""
    print("case g RSS after 10,000 and 1,000,000 requests", flush=True)
    server = start_stubd(a, a.small_stubs)
    try:
        idle = server.rss()
        done = send_requests(server.port, FIXTURE, 10_000)
        assert done == 10_000, f"only {done} of 10,000 requests were answered 200"
        after10k = server.rss()
        deadline = time.monotonic() + 120
        rate = 20_000
        while done < 1_000_000 and time.monotonic() < deadline:
            seconds = max(1, min(10, int((1_000_000 - done) / rate) + 1))
            res = wrk(server.url(FIXTURE), seconds)
            done, rate = done + res["requests"], max(res["rps"], 1000)
            print(f"  {seconds} s: {res['rps']:.0f} req/s, {done} requests so far, RSS {server.rss():.1f} MB", flush=True)
        after1m = server.rss()
    finally:
        server.stop()
    print(f"  idle {idle:.1f} MB, after 10,000: {after10k:.1f} MB, after {done}: {after1m:.1f} MB", flush=True)
    return [dict(case="g RSS after the first 10,000 requests", metric="MB", stubd=after10k, note=f"idle {idle:.1f} MB"),
            dict(case="g RSS after 1,000,000 requests", metric="MB", stubd=after1m, note=f"{done} requests in all"),
            dict(case="g RSS growth, 10,000 -> 1,000,000 requests", metric="MB", stubd=after1m - after10k)]


def stream_gets(port, path, stop, samples):
    """Sequential keep-alive GETs of PATH until STOP; appends (start, end, status) per request."""
    ka = KeepAlive(port)
    try:
        while not stop.is_set():
            start = time.perf_counter()
            status, _, _ = ka.request(path)
            samples.append((start, time.perf_counter(), status))
    finally:
        ka.close()


def reload_once(server, path):
    """One POST /__stubd/reload while another connection streams GETs of PATH: (reload ms, worst
    GET latency overlapping the reload in ms, GETs completed inside the reload, p50 GET ms before)."""
    samples, stop = [], threading.Event()
    streamer = threading.Thread(target=stream_gets, args=(server.port, path, stop, samples))
    streamer.start()
    try:
        time.sleep(0.5)
        ka = KeepAlive(server.port, timeout=120)
        start = time.perf_counter()
        status, body, _ = ka.request("/__stubd/reload", method="POST")
        end = time.perf_counter()
        ka.close()
        time.sleep(0.3)
    finally:
        stop.set()
        streamer.join()
    assert status == 200, f"reload answered {status}: {body[:300]!r}"
    assert all(s == 200 for _, _, s in samples), "a GET during the reload was not answered 200"
    overlapping = [e - s for s, e, _ in samples if e > start and s < end]
    inside = sum(1 for s, e, _ in samples if s >= start and e <= end)
    before = [e - s for s, e, _ in samples if e <= start]
    return (end - start) * 1000, max(overlapping) * 1000, inside, median(before) * 1000


def case_reload(a):
    """Case h: time of POST /__stubd/reload with 10,000 routes, and whether GETs on the same
    server are answered while it runs (their worst latency)."""
    print("case h reload of 10,000 routes", flush=True)
    stubs, paths = a.tables[10000]
    server = start_stubd(a, stubs, ready=paths[0])
    try:
        runs = [reload_once(server, paths[0]) for _ in range(2 if a.quick else 3)]
    finally:
        server.stop()
    for r in runs:
        print(f"  reload {r[0]:.0f} ms; worst GET overlapping it {r[1]:.1f} ms; {r[2]} GETs completed inside it; "
              f"GET p50 before {r[3]:.2f} ms", flush=True)
    reload_ms = median([r[0] for r in runs])
    worst = max(r[1] for r in runs)
    inside, before = median([r[2] for r in runs]), median([r[3] for r in runs])
    return [dict(case="h POST /__stubd/reload, 10,000 routes", metric="ms", stubd=reload_ms, note=f"median of {len(runs)}"),
            dict(case="h worst GET latency during the reload", metric="ms", stubd=worst,
                 note=f"GETs completed inside a reload: median {inside:.0f}; GET p50 before it {before:.2f} ms")]


COLUMNS = ["stubd", "floor", "nginx", "pytest-httpserver", "mockintosh"]


def cell(value, metric):
    if value is None:
        return "-"
    if metric == "req/s":
        return f"{value:.0f}"
    return f"{value:.3f}" if metric == "ratio" else f"{value:.2f}" if abs(value) < 100 else f"{value:.0f}"


def print_table(rows, a):
    head = ["case", "unit", *COLUMNS, *(f"stubd/{c}" for c in COLUMNS[1:])]
    lines = []
    for r in rows:
        values = [cell(r.get(c), r["metric"]) for c in COLUMNS]
        ratios = [f"{r['stubd'] / r[c]:.3f}" if r.get("ratios") and r.get(c) else "-" for c in COLUMNS[1:]]
        lines.append([r["case"], r["metric"], *values, *ratios])
    widths = [max(len(x[i]) for x in [head, *lines]) for i in range(len(head))]
    fmt = lambda xs: "  ".join(x.ljust(w) if i < 2 else x.rjust(w) for i, (x, w) in enumerate(zip(xs, widths)))  # noqa: E731
    print()
    print(fmt(head))
    print("  ".join("-" * w for w in widths))
    for line in lines:
        print(fmt(line))
    print()
    for r in rows:
        if r.get("note"):
            print(f"  {r['case']}: {r['note']}")
    print(f"\nwrk -t1 -c50 keep-alive; {a.rounds} alternating rounds of {a.seconds} s, medians; pytest-httpserver and "
          f"mockintosh only in the first {a.slow_rounds} rounds, {a.slow_seconds} s each (they are slow); "
          f"stubd --threads 1 --no-watch --log off, journal 1000 unless said otherwise.")


def main():
    a = parse_args()
    check_tools(a)
    a.binary = a.binary or build_release()
    prepare(a)
    print(f"stubd {a.binary}; work directory {a.work}", flush=True)
    started = time.monotonic()
    cases = {
        "a": lambda: case_throughput(a, "a small fixture 216 B", a.small_stubs, a.small_fixture),
        "b": lambda: case_throughput(a, "b 100 KB JSON fixture", a.big_stubs, a.big_fixture),
        "c": lambda: case_log(a), "d": lambda: case_routes(a), "e": lambda: case_404(a),
        "f": lambda: case_start(a), "g": lambda: case_memory(a), "h": lambda: case_reload(a),
    }
    rows = []
    try:
        for key in a.cases:
            rows += cases[key]()
    finally:
        shutil.rmtree(a.work, ignore_errors=True)
    print_table(rows, a)
    print(f"total {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
