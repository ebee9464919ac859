#!/usr/bin/env python3
"""Stubs that remember (issue 56): what collections and state cost, measured against plain routes
in the same run. Every reference is first checked to answer the same bytes as what it stands in for.

Cases (letters for --cases):
  1  routes that remember nothing: bench/paired.py --cases small between the build before the
     feature and this one (run here when --before is given; goal: within 1%)
  2  GET /items/{id} among 10,000 seeded objects against a plain route `/plain/{id}` answering an
     object of the same bytes: server CPU per request, wrk -t1 -c50 spreading 2,000 random ids,
     one daemon (--threads 1 --log off --no-watch, journal on) pinned to core 1, wrk to core 0,
     the two routes alternating within each round (goal: ≤ 1.3× the plain GET)
  3  a 20-item page of the 10,000 objects, sequential over keep-alive (http.client): p50/p99 of
     random pages unsorted, sorted (`sort=-score`) and filtered (`group=3`), each interleaved
     request by request with a plain route answering page 1's bytes; then the unsorted and
     sorted pages again after one POST (the scope's written copy is read, not the seed)
     (goal: p99 < 2 ms unsorted)
  4  one daemon (default threads): 1,000 POSTs from 50 threads on keep-alive connections →
     distinct ids and the list's total (10,000 + 1,000); 500 PATCHes at once of 500 different
     fields of one object → every field there
  5  the same through the shipped HAProxy configuration (deploy/haproxy/haproxy.cfg, its bind
     and servers rewritten) over three replicas with --state on one redis-server
  6  wrk -t1 -c50 POST /items and GET /items/{id} on one replica with --state against one
     daemon with local state (both --threads 1, not pinned: the store shares the cores), rounds
     alternating which goes first, the collection reset before each run; throughput ratio
     --state/local per round (goal ≥ 0.5×); beside them the plain `/plain/{id}` the same way,
     which shows what the fleet costs a route that remembers nothing (journal sent to the store)

usage: bench/memory.py [--binary PATH] [--before PATH --paired-stubs DIR] [--cases 123456] [--rounds N] [--seconds S]
                       [--paired-rounds N] [--requests N] [--sorted-requests N] [--instructions]

Case 1 alone is `bench/paired.py --before BEFORE --after AFTER --cases small --rounds 10 --stubs DIR`;
with --before, this script runs exactly that. The build before the feature refuses today's shipped
Stubs (`_state.json`, `then`, `collection` are unknown to it), so give --paired-stubs the before
checkout's Stubs (its /api/v1/users/1 is the same bytes): both builds then serve that tree, e.g.
    git worktree add /work/wt/before 5a29101 && (cd /work/wt/before && swift build -c release --product stubd)
    bench/memory.py --before /work/wt/before/.build/release/stubd --paired-stubs /work/wt/before/Stubs
Needs wrk, taskset, redis-server (or valkey-server) and haproxy; valgrind for --instructions.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (BENCH, ROOT, Daemon, Server, build_release, cpu_seconds, free_port, median, percentile,  # noqa: E402
                    spread_script, stubd_command, wrk)
from fleet import Store  # noqa: E402
from instructions import count as count_instructions  # noqa: E402

OBJECTS = 10_000
ITEMS = "/api/v1/items"
COLLECTION_ID = "app%2Fitems"
POST_BODY = '{"name": "created by the bench", "group": 3, "score": 5000, "done": false}'


# -- the stub tree ------------------------------------------------------------------------------

def seed_object(i):
    """One of the 10,000 objects: about 200 bytes, a number to sort by and a group to filter by."""
    return {"id": i, "name": f"item {i:05d}", "group": i % 10, "score": (i * 7919) % 10007,
            "done": i % 3 == 0, "owner": {"id": i % 100, "name": f"owner {i % 100:03d}"},
            "tags": ["alpha", "beta"] if i % 2 else ["gamma"], "createdAt": f"2024-01-{i % 28 + 1:02d}T10:00:00Z"}


def write_tree(root, object_body, page_body):
    """The collection (seed of 10,000), `/plain/{id}` answering OBJECT_BODY and `/plainpage`
    answering PAGE_BODY (bytes; empty on the first pass, before the daemon gave them)."""
    svc = os.path.join(root, "app")
    for d in ("items", "plain", "plainpage"):
        os.makedirs(os.path.join(svc, d), exist_ok=True)
    with open(os.path.join(svc, "_service.json"), "w") as f:
        json.dump({"basePath": "/api/v1"}, f)
    with open(os.path.join(svc, "items", "route.json"), "w") as f:
        json.dump({"path": "/items", "collection": {
            "seed": "items.json", "id": "id", "ids": "integer",
            "pagination": {"style": "page", "page": "page", "size": "per_page", "defaultSize": 20, "maxSize": 100},
            "sort": "sort",
            "list": {"data": "{{items}}", "meta": {"total": "{{total}}", "page": "{{page}}", "perPage": "{{size}}", "pages": "{{pages}}"}}}}, f)
    with open(os.path.join(svc, "items", "items.json"), "w") as f:
        json.dump([seed_object(i) for i in range(1, OBJECTS + 1)], f)
    for folder, path, body in (("plain", "/plain/{id}", object_body), ("plainpage", "/plainpage", page_body)):
        with open(os.path.join(svc, folder, "route.json"), "w") as f:
            json.dump({"method": "GET", "path": path}, f)
        with open(os.path.join(svc, folder, "200.json"), "wb") as f:
            f.write(body or b"{}")
    return root


def make_tree(binary, work):
    """Writes the tree, asks a daemon for object 5,000's bytes and page 1's, and writes them as
    the plain routes' bodies: (stub folder, object bytes, page bytes)."""
    root = write_tree(os.path.join(work, "stubs"), b"", b"")
    d = Daemon(binary, "--no-watch", stubs=root)
    try:
        _, obj = d.get(ITEMS + "/5000")
        _, page = d.get(ITEMS + "?page=1&per_page=20")
    finally:
        d.stop()
    write_tree(root, obj, page)
    return root, obj, page


# -- small helpers ------------------------------------------------------------------------------

def call(port, method, path, body=None, conn=None, timeout=60):
    """(status, body bytes, headers) of one request, on CONN when given (kept open)."""
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request(method, path, body=body, headers={"Content-Type": "application/json"} if body is not None else {})
    r = c.getresponse()
    data = r.read()
    if conn is None:
        c.close()
    return r.status, data, r.headers


def spread(values):
    """'median (min–max, spread ±x%)' of per-round ratios."""
    m = median(values)
    half = (max(values) - min(values)) / 2 / m * 100 if m else 0
    return f"{m:.3f} (rounds {min(values):.3f}–{max(values):.3f}, ±{half:.1f}%)"


def verdict(ok):
    return "met" if ok else "MISSED"


def pinned(cmd, core):
    return ["taskset", "-c", str(core), *cmd]


def post_script(folder):
    path = os.path.join(folder, "post.lua")
    with open(path, "w") as f:
        f.write(f'wrk.method = "POST"\nwrk.body = {json.dumps(POST_BODY)}\nwrk.headers["Content-Type"] = "application/json"\n')
    return path


def random_ids(n, seed=56):
    rng = random.Random(seed)
    return [rng.randint(1, OBJECTS) for _ in range(n)]


# -- case 1 -------------------------------------------------------------------------------------

def case_1(a, binary, work):
    if not a.before:
        print("1) routes that remember nothing: not run (give --before: the build before the feature, e.g. 5a29101)")
        print("   bench/paired.py --before BEFORE --after AFTER --cases small --rounds 10\n")
        return
    cmd = [sys.executable, os.path.join(BENCH, "paired.py"), "--before", a.before, "--after", binary,
           "--cases", "small", "--rounds", str(a.paired_rounds), "--seconds", str(a.seconds)]
    if a.paired_stubs:
        cmd += ["--stubs", a.paired_stubs]
    print("1) routes that remember nothing: " + " ".join(cmd[1:]), flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    summary = out[out.index("\ncase"):].strip("\n") if "\ncase" in out else out
    print("   " + summary.replace("\n", "\n   "))
    for line in out.splitlines():
        if line.startswith("small") and "CPU per request" in line and "user" not in line:
            ratio = float(line.split()[4])
            print(f"   CPU per request after/before: {ratio:.3f} (goal: at most 1% more, ≤ 1.010: {verdict(ratio <= 1.01)}; "
                  f"the rounds' range above is the timing's resolution)")
    if a.instructions:
        stubs = a.paired_stubs or os.path.join(ROOT, "Stubs")
        fixture = "/api/v1/users/1"
        body = open(os.path.join(stubs, "app", "user", "200.json"), "rb").read()
        ir = {name: count_instructions(b, stubs, [fixture], [body], 3000, work)["Ir"] for name, b in (("before", a.before), ("after", binary))}
        print(f"   instructions per request (callgrind, 3,000 GETs): before {ir['before']:,.0f}, after {ir['after']:,.0f}, "
              f"after/before {ir['after'] / ir['before']:.4f}")
    print(flush=True)


# -- cases 2 and 3: one pinned daemon -----------------------------------------------------------

def case_2(a, server, work, obj):
    ids = random_ids(2000)
    paths = {"collection": [f"{ITEMS}/{i}" for i in ids], "plain": [f"/api/v1/plain/{i}" for i in ids]}
    for i in ids[:200]:
        status, body, _ = server.get(f"{ITEMS}/{i}")
        assert status == 200 and json.loads(body)["id"] == i, (i, status, body[:200])
    status, body, _ = server.get(f"{ITEMS}/5000")
    for p in paths["plain"][:50]:
        got = server.get(p)
        if got[0] != 200 or got[1] != body:
            sys.exit(f"the plain route answers {p} with {got[0]} and {len(got[1])} bytes, not object 5000's {len(body)}; not timing it")
    scripts = {name: spread_script(work, ps, name=f"spread-{name}.lua") for name, ps in paths.items()}
    cpu, rps = {"collection": [], "plain": []}, {"collection": [], "plain": []}
    for r in range(a.rounds):
        order = ["collection", "plain"] if r % 2 == 0 else ["plain", "collection"]
        for name in order:
            before = cpu_seconds(server.pid)
            res = wrk(server.url("/"), a.seconds, script=scripts[name], cpu=0)
            if res["non2xx"] or res["errors"]:
                print(f"   warning: {name}: {res['non2xx']} non-2xx, {res['errors']} socket errors")
            cpu[name].append((cpu_seconds(server.pid) - before) / res["requests"] * 1e6)
            rps[name].append(res["rps"])
        print(f"   round {r + 1}: collection {cpu['collection'][-1]:.2f} µs/req ({rps['collection'][-1]:.0f} req/s), "
              f"plain {cpu['plain'][-1]:.2f} µs/req ({rps['plain'][-1]:.0f} req/s)", flush=True)
    ratios = [c / p for c, p in zip(cpu["collection"], cpu["plain"])]
    print(f"2) GET by id among {OBJECTS:,} objects ({len(obj)} B, 2,000 random ids), wrk -t1 -c50, {a.rounds} rounds of {a.seconds} s:")
    print(f"   collection {median(cpu['collection']):.2f} µs CPU/request, {median(rps['collection']):,.0f} req/s; "
          f"plain /plain/{{id}} {median(cpu['plain']):.2f} µs, {median(rps['plain']):,.0f} req/s")
    print(f"   CPU ratio collection/plain: {spread(ratios)} (goal ≤ 1.3×: {verdict(median(ratios) <= 1.3)}); "
          f"req/s ratio {median([c / p for c, p in zip(rps['collection'], rps['plain'])]):.3f}", flush=True)
    if a.instructions:
        bodies = [server.get(p)[1] for p in paths["collection"]]
        ir = {name: count_instructions(a.binary_used, server.stubs, paths[name], bodies if name == "collection" else [body] * len(bodies),
                                       3000, work)["Ir"] for name in paths}
        print(f"   instructions per request (callgrind, 3,000 GETs over one connection): collection {ir['collection']:,.0f}, "
              f"plain {ir['plain']:,.0f}, ratio {ir['collection'] / ir['plain']:.3f}")
    print(flush=True)


def latencies(port, paths, ref_path, ref_body, check):
    """Each path timed on one keep-alive connection, interleaved with the reference on another:
    (page ms, reference ms)."""
    pc = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    rc = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    mine, ref = [], []
    for path in paths:
        for conn, p, out in ((pc, path, mine), (rc, ref_path, ref)):
            t = time.perf_counter()
            conn.request("GET", p)
            resp = conn.getresponse()
            body = resp.read()
            out.append((time.perf_counter() - t) * 1000)
            if resp.status != 200:
                sys.exit(f"{p} answered {resp.status}: {body[:200]}")
            if conn is rc and body != ref_body:
                sys.exit("the plain page route does not answer page 1's bytes; not timing it")
            if conn is pc and check:
                check(p, body)
    pc.close()
    rc.close()
    return mine, ref


def case_3(a, server, page):
    rng = random.Random(3)
    status, body, _ = server.get(f"{ITEMS}?page=1&per_page=20")
    if status != 200 or body != page:
        sys.exit("the collection's page 1 is not what the plain page route answers; not timing it")

    def checked(total):
        def check(path, body):
            doc = json.loads(body)
            assert len(doc["data"]) == 20 and doc["meta"]["total"] == total, (path, doc["meta"])
        return check

    def pages(n, query="", pages_of=OBJECTS // 20):
        return [f"{ITEMS}?page={rng.randint(1, pages_of)}&per_page=20{query}" for _ in range(n)]

    kinds = [("unsorted", pages(a.requests), OBJECTS, "< 2 ms"),
             ("sort=-score", pages(a.sorted_requests, "&sort=-score"), OBJECTS, None),
             ("group=3", pages(a.sorted_requests, "&group=3", OBJECTS // 10 // 20), OBJECTS // 10, None),
             ("group=3&sort=-score", pages(a.sorted_requests, "&group=3&sort=-score", OBJECTS // 10 // 20), OBJECTS // 10, None)]
    # Page 1 of the sorted list before the write, to see the write's object placed in it.
    rows = []
    for name, paths, total, goal in kinds:
        mine, ref = latencies(server.port, paths, "/api/v1/plainpage", page, checked(total))
        rows.append((name, mine, ref, goal))
    status, _, _ = call(server.port, "POST", ITEMS, POST_BODY)
    assert status == 201, status
    for name, paths, total, goal in kinds[:2]:
        mine, ref = latencies(server.port, paths, "/api/v1/plainpage", page, checked(OBJECTS + 1))
        rows.append((name + ", after a POST", mine, ref, goal))
    status, _, _ = call(server.port, "DELETE", f"/__stubd/collections/{COLLECTION_ID}")
    assert status in (200, 204), status
    print(f"3) 20-item pages of {OBJECTS:,} objects, sequential over keep-alive, each request interleaved with "
          f"GET /plainpage (page 1's {len(page):,} bytes):")
    print(f"   {'list':32s} {'n':>5s} {'p50 ms':>7s} {'p99 ms':>7s} {'plain p50':>9s} {'plain p99':>9s} {'p50 ratio':>9s}  goal")
    for name, mine, ref, goal in rows:
        p99 = percentile(mine, 99)
        g = f"p99 {goal}: {verdict(p99 < 2)}" if goal else ""
        print(f"   {name:32s} {len(mine):5d} {percentile(mine, 50):7.3f} {p99:7.3f} {percentile(ref, 50):9.3f} "
              f"{percentile(ref, 99):9.3f} {percentile(mine, 50) / percentile(ref, 50):9.2f}  {g}")
    print(flush=True)


# -- cases 4 and 5: concurrency -----------------------------------------------------------------

def concurrency(port, label, clients=50, posts=1000, patches=500):
    """1,000 POSTs from 50 threads, then 500 PATCHes of different fields of object 1 at once;
    returns the printed lines' facts."""
    results, failures, lock = [], [], threading.Lock()

    def worker(jobs, make):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for j in jobs:
            method, path, body = make(j)
            try:
                status, data, _ = call(port, method, path, body, conn=conn)
            except (OSError, http.client.HTTPException) as e:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                with lock:
                    failures.append(f"{method} {j}: {e!r}")
                continue
            with lock:
                if status in (200, 201):
                    results.append(data)
                else:
                    failures.append(f"{method} {j}: {status} {data[:200]!r}")
        conn.close()

    def run(n, make):
        threads = [threading.Thread(target=worker, args=(range(k, n, clients), make)) for k in range(clients)]
        t = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return time.perf_counter() - t

    post_s = run(posts, lambda j: ("POST", ITEMS, json.dumps({"name": f"posted {j}", "group": j % 10, "score": j})))
    ids = [json.loads(data)["id"] for data in results]
    _, body, headers = call(port, "GET", f"{ITEMS}?page=1&per_page=1")
    total = json.loads(body)["meta"]["total"]
    post_failures = list(failures)
    results.clear()
    failures.clear()
    patch_s = run(patches, lambda j: ("PATCH", f"{ITEMS}/1", json.dumps({f"field{j:03d}": j})))
    _, body, _ = call(port, "GET", f"{ITEMS}/1")
    obj = json.loads(body)
    present = sum(1 for j in range(patches) if obj.get(f"field{j:03d}") == j)
    ok_posts = len(set(ids)) == posts and total == OBJECTS + posts and not post_failures
    ok_patches = present == patches and not failures and obj.get("name") == "item 00001"
    print(f"   {label}: {posts:,} POSTs from {clients} threads in {post_s:.2f} s ({posts / post_s:,.0f}/s): "
          f"{len(set(ids)):,} distinct ids of {len(ids):,} answered, list total {total:,} (want {OBJECTS + posts:,}), "
          f"X-Total-Count {headers.get('X-Total-Count')}, failures {len(post_failures)}: {verdict(ok_posts)}")
    print(f"   {label}: {patches} PATCHes of {patches} fields of one object from {clients} threads in {patch_s:.2f} s "
          f"({patches / patch_s:,.0f}/s): {present} fields present, failures {len(failures)}: {verdict(ok_patches)}")
    for f in (post_failures + failures)[:5]:
        print(f"     {f}")


def case_4(a, binary, stubs):
    d = Daemon(binary, "--no-watch", stubs=stubs)
    try:
        print("4) concurrency, one daemon (local state, default threads):")
        concurrency(d.port, "one daemon")
    finally:
        d.stop()
    print(flush=True)


def haproxy_config(backends, port):
    """The shipped deploy/haproxy/haproxy.cfg with its bind on PORT, its servers the replicas'
    loopback ports, and no per-request log (nobody reads it here)."""
    with open(os.path.join(ROOT, "deploy", "haproxy", "haproxy.cfg")) as f:
        shipped = f.read().split("\n")
    lines = []
    for line in shipped:
        t = line.strip()
        if t.startswith("log ") or t == "option httplog":
            continue
        if t == "bind :8080":
            lines.append(f"    bind 127.0.0.1:{port}")
            continue
        if t.startswith("server stubd-"):
            if t.startswith("server stubd-1 "):
                lines += [f"    server r{i + 1} 127.0.0.1:{p}" for i, p in enumerate(backends)]
            continue
        lines.append(line)
    config = "\n".join(lines)
    assert f"127.0.0.1:{port}" in config and "server r1 " in config, "the shipped file's bind and servers were found"
    return config


def case_5(a, binary, stubs, work):
    store = Store(work)
    fleet, balancer = [], None
    try:
        fleet = [Daemon(binary, "--no-watch", "--state", store.url, "--replica", f"r{i + 1}", stubs=stubs) for i in range(3)]
        port = free_port()
        cfg = os.path.join(work, "haproxy.cfg")
        with open(cfg, "w") as f:
            f.write(haproxy_config([d.port for d in fleet], port))
        balancer = Server("haproxy", [shutil.which("haproxy") or "/usr/sbin/haproxy", "-db", "-f", cfg],
                          os.path.join(work, "haproxy.out"), port=port, ready_path="/__stubd/health")
        for d in fleet:
            if d.get(ITEMS + "/5000") != fleet[0].get(ITEMS + "/5000"):
                sys.exit("the replicas do not answer object 5000 alike")
        print("5) concurrency, three replicas with --state on one redis-server, behind the shipped HAProxy configuration:")
        store_before = cpu_seconds(store.proc.pid)
        concurrency(port, "fleet")
        served = []
        for d in fleet:
            _, body = d.get("/__stubd/journal/count")
            served.append(json.loads(body)["count"])
        print(f"   requests per replica (journal counts, 1,000 entries each at most): {served}; "
              f"store CPU {cpu_seconds(store.proc.pid) - store_before:.2f} s")
    finally:
        if balancer:
            balancer.stop()
        for d in fleet:
            d.stop()
        store.stop()
    print(flush=True)


# -- case 6 -------------------------------------------------------------------------------------

def case_6(a, binary, stubs, work):
    store = Store(work)
    servers = {}
    try:
        # POSTs at full speed pass the default bound of 100,000 objects within a run.
        room = ["--max-collection-objects", "10000000"]
        servers["local"] = Server("local", stubd_command(binary, stubs, *room), os.path.join(work, "local.out"), ready_path=ITEMS + "/1")
        servers["fleet"] = Server("fleet", stubd_command(binary, stubs, *room, "--state", store.url, "--replica", "bench"),
                                  os.path.join(work, "fleet.out"), ready_path=ITEMS + "/1")
        for i in random_ids(50):
            if servers["local"].get(f"{ITEMS}/{i}")[1] != servers["fleet"].get(f"{ITEMS}/{i}")[1]:
                sys.exit(f"the two servers answer {ITEMS}/{i} differently; not timing them")
        created = {n: call(s.port, "POST", ITEMS, POST_BODY) for n, s in servers.items()}
        if created["local"][:2] != created["fleet"][:2] or created["local"][0] != 201:
            sys.exit(f"the two servers answer a POST differently: {created['local'][:2]} / {created['fleet'][:2]}")
        ids = random_ids(2000)
        scripts = {"GET": spread_script(work, [f"{ITEMS}/{i}" for i in ids], name="spread-get.lua"), "POST": post_script(work),
                   "plain": spread_script(work, [f"/api/v1/plain/{i}" for i in ids], name="spread-plain.lua")}
        rps = {(n, k): [] for n in servers for k in scripts}
        cpu = {(n, k): [] for n in servers for k in scripts}
        store_cpu = {k: [] for k in scripts}
        for r in range(a.rounds):
            order = ["local", "fleet"] if r % 2 == 0 else ["fleet", "local"]
            for kind, script in scripts.items():
                for name in order:
                    s = servers[name]
                    status, _, _ = call(s.port, "DELETE", f"/__stubd/collections/{COLLECTION_ID}")
                    assert status in (200, 204), status
                    before, sbefore = cpu_seconds(s.pid), cpu_seconds(store.proc.pid)
                    res = wrk(s.url(ITEMS), a.seconds, script=script)
                    if res["non2xx"] or res["errors"]:
                        print(f"   warning: {name} {kind}: {res['non2xx']} non-2xx, {res['errors']} socket errors")
                    rps[(name, kind)].append(res["rps"])
                    cpu[(name, kind)].append((cpu_seconds(s.pid) - before) / res["requests"] * 1e6)
                    if name == "fleet":
                        store_cpu[kind].append((cpu_seconds(store.proc.pid) - sbefore) / res["requests"] * 1e6)
            print(f"   round {r + 1}: " + ", ".join(f"{k} local {rps[('local', k)][-1]:,.0f} / fleet {rps[('fleet', k)][-1]:,.0f} req/s"
                                                    for k in scripts), flush=True)
        for s in servers.values():
            call(s.port, "DELETE", f"/__stubd/collections/{COLLECTION_ID}")
        print(f"6) collection throughput, one replica with --state against one daemon with local state "
              f"(wrk -t1 -c50, --threads 1, {a.rounds} rounds of {a.seconds} s, collection reset before each run):")
        for kind in scripts:
            ratios = [f / l for f, l in zip(rps[("fleet", kind)], rps[("local", kind)])]
            goal = f"goal ≥ 0.5×: {verdict(median(ratios) >= 0.5)}" if kind != "plain" else "the fleet's cost on a route that remembers nothing"
            print(f"   {kind:5s} local {median(rps[('local', kind)]):8,.0f} req/s {median(cpu[('local', kind)]):7.1f} µs CPU/req; "
                  f"--state {median(rps[('fleet', kind)]):8,.0f} req/s {median(cpu[('fleet', kind)]):7.1f} µs CPU/req "
                  f"(store {median(store_cpu[kind]):.1f} µs/req)")
            print(f"         throughput --state/local: {spread(ratios)} ({goal})")
    finally:
        for s in servers.values():
            s.stop()
        store.stop()
    print(flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", help="the stubd to measure (default: a release build of this checkout)")
    p.add_argument("--before", help="the build before the feature, for case 1 (paired.py --cases small)")
    p.add_argument("--paired-stubs", help="case 1's stub folder (default: paired.py's, the shipped Stubs)")
    p.add_argument("--paired-rounds", type=int, default=10)
    p.add_argument("--cases", default="123456")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--seconds", type=int, default=3)
    p.add_argument("--requests", type=int, default=2000, help="unsorted pages timed in case 3")
    p.add_argument("--sorted-requests", type=int, default=300, help="sorted or filtered pages timed in case 3")
    p.add_argument("--instructions", action="store_true",
                   help="also count instructions per request under callgrind in cases 1 and 2 (steady where timings are not)")
    a = p.parse_args()
    binary = a.binary_used = a.binary or build_release()
    with open("/proc/loadavg") as f:
        print(f"load average at the start: {' '.join(f.read().split()[:3])} (2 shared cores)\n", flush=True)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="stubd-memory-bench-") as work:
        stubs, obj, page = make_tree(binary, work)
        if "1" in a.cases:
            case_1(a, binary, work)
        if "2" in a.cases or "3" in a.cases:
            server = Server("stubd", pinned(stubd_command(binary, stubs), 1), os.path.join(work, "pinned.out"), ready_path=ITEMS + "/1")
            server.stubs = stubs
            try:
                if "2" in a.cases:
                    case_2(a, server, work, obj)
                if "3" in a.cases:
                    case_3(a, server, page)
            finally:
                server.stop()
        if "4" in a.cases:
            case_4(a, binary, stubs)
        if "5" in a.cases:
            case_5(a, binary, stubs, work)
        if "6" in a.cases:
            case_6(a, binary, stubs, work)
    with open("/proc/loadavg") as f:
        print(f"took {time.monotonic() - began:.0f} s; load average at the end: {' '.join(f.read().split()[:3])}")


if __name__ == "__main__":
    main()
