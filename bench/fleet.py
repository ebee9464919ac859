#!/usr/bin/env python3
"""A stubd fleet on one Redis (`serve --state`), measured against one stubd with local state in
the same run. Cases:
  a  plain request cost: wrk -t1 -c50 on a replica with --state (journal on) against the same
     replica without it, rounds alternating; throughput ratio and server CPU per request
     (the store's CPU shown beside, it shares the machine's two cores)
  p  override propagation: PUT on replica 1, time until replicas 2 and 3 serve it (each polled
     on its own keep-alive connection), 200 changes; also the PUT's own round trip
  s  a 1,000-step sequence over 1,000 requests from 4 threads round robin over 3 replicas:
     every step taken exactly once (from the journal's selection.step), journal total exact
  o  the store stopped for 10 s under 1,000 requests/s over 3 replicas: unanswered requests,
     time until health says degraded, time from the store's return until it says ok, and the
     journal total after it

usage: bench/fleet.py [--binary PATH] [--cases apso] [--rounds N] [--seconds S]

Needs: redis-server (or valkey-server) and wrk (apt-get install redis-server wrk).
"""
import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Daemon, build_release, cpu_seconds, free_port, median, percentile, wrk  # noqa: E402

FIXTURE = "/api/v1/users/1"


class Store:
    """redis-server on a free port, without persistence."""

    def __init__(self, folder):
        self.folder, self.port = folder, free_port()
        self.exe = shutil.which("valkey-server") or shutil.which("redis-server")
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen([self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                      "--dir", self.folder, "--logfile", os.path.join(self.folder, "store.log")])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.command("PING") == "+PONG":
                return
            time.sleep(0.01)
        raise RuntimeError("the store did not start")

    def command(self, line):
        import socket
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                s.sendall(line.encode() + b"\r\n")
                return s.recv(4096).decode().split("\r\n")[0]
        except OSError:
            return None

    def stop(self):
        self.command("SHUTDOWN NOSAVE")
        self.proc.wait(timeout=10)

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"


def call(port, method, path, body=None, conn=None):
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
    r = c.getresponse()
    data = r.read()
    if conn is None:
        c.close()
    return r.status, data


def replicas(binary, store, n, *extra):
    return [Daemon(binary, "--no-watch", "--state", store.url, "--replica", f"r{i + 1}", *extra) for i in range(n)]


def case_a(binary, store, args):
    fleet = Daemon(binary, "--no-watch", "--threads", "1", "--state", store.url, "--replica", "bench")
    local = Daemon(binary, "--no-watch", "--threads", "1")
    for d in (fleet, local):
        assert d.get(FIXTURE)[1] == local.get(FIXTURE)[1], "the two servers must answer the same bytes"
    rps = {"local": [], "fleet": []}
    cpu = {"local": [], "fleet": [], "store": []}
    for _ in range(args.rounds):
        for name, d in (("local", local), ("fleet", fleet)):
            before, store_before = cpu_seconds(d.proc.pid), cpu_seconds(store.proc.pid)
            run = wrk(f"{d.base}{FIXTURE}", args.seconds)
            assert run["errors"] == 0 and run["non2xx"] == 0, run
            rps[name].append(run["rps"])
            cpu[name].append((cpu_seconds(d.proc.pid) - before) / run["requests"] * 1e6)
            if name == "fleet":
                cpu["store"].append((cpu_seconds(store.proc.pid) - store_before) / run["requests"] * 1e6)
    status, body = call(fleet.port, "GET", "/__stubd/health")
    waiting = json.loads(body)["store"]
    for d in (fleet, local):
        d.stop()
    ratio = median(rps["fleet"]) / median(rps["local"])
    print(f"a) plain request, wrk -t1 -c50, {args.rounds} rounds of {args.seconds} s alternating")
    print(f"   local state: {median(rps['local']):,.0f} req/s, {median(cpu['local']):.1f} µs CPU/request")
    print(f"   --state:     {median(rps['fleet']):,.0f} req/s, {median(cpu['fleet']):.1f} µs CPU/request "
          f"(store: {median(cpu['store']):.1f} µs/request)")
    print(f"   throughput ratio --state/local: {ratio:.3f} (goal ≥ 0.9); rounds fleet {[round(x) for x in rps['fleet']]}, "
          f"local {[round(x) for x in rps['local']]}; journal dropped {waiting['journalDropped']}")


def poll_until(port, status, stop_at, seen):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    while time.perf_counter() < stop_at:
        got, _ = call(port, "GET", "/api/v1/users", conn=conn)
        if got == status:
            seen.append(time.perf_counter())
            return
    conn.close()


def case_p(binary, store, args):
    fleet = replicas(binary, store, 3)
    lags, puts = [], []
    for i in range(args.changes):
        variant = "500" if i % 2 == 0 else "503"
        seen = [[], []]
        start = time.perf_counter()
        pollers = [threading.Thread(target=poll_until, args=(fleet[k].port, int(variant), start + 5, seen[k - 1])) for k in (1, 2)]
        for t in pollers:
            t.start()
        time.sleep(0.002)
        sent = time.perf_counter()
        status, _ = call(fleet[0].port, "PUT", "/__stubd/routes/app/users", json.dumps({"variant": variant}))
        puts.append((time.perf_counter() - sent) * 1000)
        assert status == 200
        for t in pollers:
            t.join()
        for s in seen:
            assert s, "a replica never served the change"
            lags.append(max(0.0, (s[0] - sent) * 1000))
    for d in fleet:
        d.stop()
    print(f"p) override propagation over {args.changes} changes, 2 replicas watched each (ms from the PUT sent):")
    print(f"   p50 {percentile(lags, 50):.2f}, p99 {percentile(lags, 99):.2f}, max {max(lags):.2f} (goal p99 ≤ 50 ms); "
          f"the PUT's own round trip p50 {percentile(puts, 50):.2f}, p99 {percentile(puts, 99):.2f}")


def case_s(binary, store, args):
    fleet = replicas(binary, store, 3, "--journal-size", "5000")
    steps = ["500" if i % 3 else "503" for i in range(1000)]
    status, _ = call(fleet[0].port, "PUT", "/__stubd/routes/app/users", json.dumps({"sequence": steps}))
    assert status == 200
    call(fleet[0].port, "DELETE", "/__stubd/journal")
    statuses, lock = [], threading.Lock()

    def worker(offset):
        conns = [http.client.HTTPConnection("127.0.0.1", d.port, timeout=30) for d in fleet]
        for i in range(250):
            got, _ = call(fleet[(offset + i) % 3].port, "GET", "/api/v1/users", conn=conns[(offset + i) % 3])
            with lock:
                statuses.append(got)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.perf_counter() - began
    _, body = call(fleet[2].port, "GET", "/__stubd/journal?route=app/users")
    entries = json.loads(body)["requests"]
    taken = sorted(e["selection"]["step"] for e in entries if e.get("selection") and e["selection"].get("by") == "sequence")
    right = sum(1 for e in entries if e.get("selection") and e["selection"].get("by") == "sequence"
                and e["variant"] == steps[e["selection"]["step"] - 1])
    counts = [json.loads(call(d.port, "GET", "/__stubd/journal/count")[1])["count"] for d in fleet]
    by_replica = {}
    for e in entries:
        by_replica[e["replica"]] = by_replica.get(e["replica"], 0) + 1
    for d in fleet:
        d.stop()
    once = taken == list(range(1, 1001))
    print(f"s) 1,000-step sequence, 1,000 requests from 4 threads round robin over 3 replicas in {took:.2f} s:")
    print(f"   steps taken exactly once: {once} ({len(taken)} steps, {len(set(taken))} distinct); variant matches its step: {right}/1000; "
          f"503s served {statuses.count(503)} of {steps.count('503')} planned")
    print(f"   journal count on each replica {counts} (sent 1,000); entries by replica {by_replica}")


def case_o(binary, store, args):
    fleet = replicas(binary, store, 3, "--journal-size", "20000")
    call(fleet[0].port, "PUT", "/__stubd/routes/app/users", json.dumps({"variant": "503"}))
    call(fleet[0].port, "DELETE", "/__stubd/journal")
    stop_flag = threading.Event()
    results = {"answered": 0, "wrong": 0, "failed": 0}
    lock = threading.Lock()

    def load(k):
        # 250 requests/s per thread, 4 threads: 1,000/s over the three replicas.
        conns = {}
        n = 0
        start = time.perf_counter()
        while not stop_flag.is_set():
            target = fleet[(k + n) % 3]
            wait = start + n / 250 - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            try:
                conn = conns.get(target.port) or http.client.HTTPConnection("127.0.0.1", target.port, timeout=5)
                conns[target.port] = conn
                got, _ = call(target.port, "GET", "/api/v1/users", conn=conn)
                with lock:
                    results["answered"] += 1
                    results["wrong"] += got != 503
            except (OSError, http.client.HTTPException):
                conns.pop(target.port, None)
                with lock:
                    results["failed"] += 1
            n += 1

    def health():
        return json.loads(call(fleet[0].port, "GET", "/__stubd/health")[1])["status"]

    threads = [threading.Thread(target=load, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    time.sleep(2)
    stopped = time.perf_counter()
    store.stop()
    while health() != "degraded":
        time.sleep(0.01)
    degraded_after = time.perf_counter() - stopped
    time.sleep(max(0.0, 10 - (time.perf_counter() - stopped)))
    back = time.perf_counter()
    store.start()
    while health() != "ok":
        time.sleep(0.01)
    ok_after = time.perf_counter() - back
    time.sleep(2)
    stop_flag.set()
    for t in threads:
        t.join()
    time.sleep(0.3)
    counts = [json.loads(call(d.port, "GET", "/__stubd/journal/count")[1])["count"] for d in fleet]
    dropped = [json.loads(call(d.port, "GET", "/__stubd/health")[1])["store"]["journalDropped"] for d in fleet]
    for d in fleet:
        d.stop()
    print(f"o) store stopped 10 s under ~1,000 requests/s over 3 replicas ({results['answered'] + results['failed']} requests sent):")
    print(f"   unanswered {results['failed']}, answered without the override {results['wrong']}; health degraded {degraded_after * 1000:.0f} ms "
          f"after the stop (goal ≤ 1 s), ok {ok_after * 1000:.0f} ms after the store's return (goal ≤ 2 s)")
    print(f"   journal count after: {counts} (answered {results['answered']}); dropped per replica {dropped}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary")
    p.add_argument("--cases", default="apso")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=int, default=3)
    p.add_argument("--changes", type=int, default=200)
    args = p.parse_args()
    binary = args.binary or build_release()
    folder = tempfile.mkdtemp(prefix="stubd-fleet-bench-")
    try:
        for case in args.cases:
            store = Store(folder)
            try:
                {"a": case_a, "p": case_p, "s": case_s, "o": case_o}[case](binary, store, args)
            finally:
                if store.proc.poll() is None:
                    store.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
