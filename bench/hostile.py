#!/usr/bin/env python3
"""Hardening, round two: the attacks of issue 26 against two stubd binaries in the same run
(`--before`, an older build, and `--after`, default: this checkout's release build), each row
printing both. Before timing anything, both binaries must answer GET /api/v1/users/1 with the
same bytes.

  fold      a folded Content-Length smuggling a second request: responses the attacker got
  slow      1,000 senders under a 1,024 file limit (slow heads that reconnect when cut, or a full
            head then a body byte a second), over HTTP and TLS; a probe every 0.1 s for 20 s with a
            1 s timeout: the share answered within 1 s
  yaml      YAML bombs through import-openapi (aliases, nesting, merges): exit, seconds, peak RSS
  redos     requests whose check is catastrophic (`^(a+)+$`, a self-referencing anyOf): seconds
            per request, and SIGTERM's time while 8 clients keep sending them
  reload    the stub folder deleted and recreated while serving: seconds until the new one is served
  special   a FIFO, then /dev/zero, named like a body file: health, RSS, SIGTERM's time
  halfclose 100 clients that send a request and their FIN together: connections left after 2 s
  admin     a 15 MiB override sequence: status and RSS after
  record    1,000 exchanges of 64 KiB through `stubd record`: first and last request's time, RSS
  proxy     60 calls to an upstream that answers after 3 s, then one fast call: its time, and
            the daemon's thread count while they wait
  uploads   100 concurrent 16 MiB uploads: peak RSS while in flight, and the statuses

Run the spec-size figures (20,000 operations, a 50 MB document) by hand: they are file-system
bound; see RESULTS.md.

usage: bench/hostile.py --before PATH [--after PATH] [--only NAME ...]
"""
import argparse
import json
import os
import resource
import select
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_release, raise_fd_limit, rss_mb, sigterm  # noqa: E402


def start(binary, stubs, extra=(), limit_files=False):
    """`stubd serve` on a free port; returns (process, port)."""
    preexec = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))) if limit_files else None
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--log", "off", "--stubs", stubs, *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=preexec)
    ready, _, _ = select.select([proc.stdout], [], [], 15)
    line = proc.stdout.readline() if ready else ""
    ports = [int(p) for p in __import__("re").findall(r"127\.0\.0\.1:(\d+)", line)]
    if not ports:
        proc.kill()
        raise RuntimeError(f"{binary} did not start: {line}")
    return proc, ports


def stop(proc, cap=15):
    return sigterm(proc, cap)


def raw(port, data, wait=3):
    """Sends bytes on a new connection; returns everything received until close or `wait`."""
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    s.sendall(data)
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    except OSError:
        pass
    s.close()
    return out


def same_bytes(before, after):
    answers = []
    for binary in (before, after):
        proc, ports = start(binary, os.path.join(ROOT, "Stubs"))
        answers.append(raw(ports[0], b"GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").split(b"\r\n\r\n", 1)[-1])
        stop(proc)
    if answers[0] != answers[1]:
        sys.exit("the two binaries answer GET /api/v1/users/1 differently; not comparing them")


def fold(binary):
    proc, ports = start(binary, os.path.join(ROOT, "Stubs"))
    attack = (b"POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n 0\r\n\r\n"
              b"GET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = raw(ports[0], attack)
    stop(proc)
    # Responses may follow a body with no line break between: find every status line.
    statuses = [part[:3].decode() for part in answer.split(b"HTTP/1.1 ")[1:]]
    return {"responses": len(statuses), "statuses": "/".join(statuses), "user 2 leaked": b"Joe" in answer or b'"id": 2' in answer}


# ------------------------------------------------------------------------------------ slow senders

def tls_material(binary):
    folder = tempfile.mkdtemp(prefix="stubd-hostile-tls-")
    subprocess.run([binary, "tls", "init", "--dir", folder], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return folder


def slow(binary, kind, tls):
    tls_dir = tls_material(binary) if tls else None
    extra = ["--tls", "--tls-only", "--tls-dir", tls_dir] if tls else []
    proc, ports = start(binary, os.path.join(ROOT, "Stubs"), extra=extra, limit_files=True)
    port = ports[0]
    context = None
    if tls:
        context = ssl.create_default_context(cafile=os.path.join(tls_dir, "ca.pem"))
    head = b"GET /api/v1/users HTTP/1.1\r\nHost: x\r\n" if kind == "head" else \
        b"POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{"
    done = threading.Event()
    senders = []

    def connect():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            if context:
                s = context.wrap_socket(s, server_hostname="localhost")
            s.setblocking(False)
            s.send(head)
            return s
        except (OSError, ssl.SSLError):
            return None

    def drive():
        # Each sender drips a byte a second; a sender cut off reconnects and starts again.
        while not done.is_set():
            for i in range(len(senders)):
                s = senders[i]
                try:
                    if s is None:
                        raise OSError
                    s.send(b"a")
                except (OSError, ssl.SSLError):
                    if s is not None:
                        s.close()
                    senders[i] = connect()
                if done.is_set():
                    break
            done.wait(1)

    for _ in range(1000):
        senders.append(connect())
    driver = threading.Thread(target=drive)
    driver.start()
    time.sleep(1)
    probes = answered = 0
    began = time.monotonic()
    url = f"{'https' if tls else 'http'}://{'localhost' if tls else '127.0.0.1'}:{port}/api/v1/users/1"
    while time.monotonic() - began < 20:
        t = time.monotonic()
        probes += 1
        try:
            with urllib.request.urlopen(url, timeout=1, context=context) as r:
                r.read()
            answered += time.monotonic() - t <= 1
        except OSError:
            pass
        time.sleep(max(0, 0.1 - (time.monotonic() - t)))
    done.set()
    driver.join()
    for s in senders:
        if s is not None:
            s.close()
    stop(proc)
    if tls_dir:
        shutil.rmtree(tls_dir, ignore_errors=True)
    return {"probes": probes, "within 1 s": answered, "share": f"{100 * answered / max(1, probes):.0f}%"}


# ------------------------------------------------------------------------------------------- specs

def yaml_bombs():
    head = "openapi: 3.0.3\ninfo: {title: B, version: '1'}\npaths: {}\n"
    laughs = head + "x-a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
    previous = "a"
    for name in "bcdefghi":
        laughs += f"x-{name}: &{name} [" + ",".join(["*" + previous] * 9) + "]\n"
        previous = name
    merges = head + "x-m0: &m0 {k0: 0}\n" + "".join(f"x-m{i}: &m{i} {{<<: *m{i - 1}, k{i}: {i}}}\n" for i in range(1, 2000))
    return {"470-byte alias bomb": laughs,
            "30,000 nested flow sequences": head + "x: " + "[" * 30000 + "]" * 30000 + "\n",
            "100,000 nested mappings": head + "x: " + "{a: " * 100000 + "1" + "}" * 100000 + "\n",
            "2,000 chained merges": merges}


def yaml(binary):
    rows = {}
    folder = tempfile.mkdtemp(prefix="stubd-hostile-yaml-")
    for name, text in yaml_bombs().items():
        spec = os.path.join(folder, "bomb.yaml")
        with open(spec, "w") as f:
            f.write(text)
        began = time.monotonic()
        # Capped at 4 GB and 60 s so an unbounded reader cannot take the machine.
        cmd = ["/usr/bin/time", "-f", "PEAK=%M", "timeout", "60", "prlimit", "--as=4294967296", "--", binary,
               "import-openapi", spec, "--stubs", os.path.join(folder, "out")]
        done = subprocess.run(cmd, capture_output=True, text=True)
        peak = next((int(line[5:]) / 1024 for line in done.stderr.splitlines() if line.startswith("PEAK=")), None)
        said = next((line for line in done.stderr.splitlines() if line.startswith("stubd:")), "")
        rows[name] = {"exit": done.returncode, "s": round(time.monotonic() - began, 2), "peak MB": round(peak or 0), "says": said[-90:]}
    shutil.rmtree(folder, ignore_errors=True)
    return rows


HOSTILE_SPEC = """openapi: 3.0.3
info: { title: H, version: "1" }
paths:
  /evil:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: { type: string, pattern: "^(a+)+$" }
                tree: { $ref: "#/components/schemas/A" }
      responses: { "200": { description: ok } }
components:
  schemas:
    A: { anyOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/A" }, { type: integer }] }
"""


def post(port, body, timeout=120):
    began = time.monotonic()
    try:
        raw(port, b"POST /evil HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body, wait=timeout)
    except OSError:
        pass
    return time.monotonic() - began


def redos(binary):
    folder = tempfile.mkdtemp(prefix="stubd-hostile-redos-")
    os.makedirs(os.path.join(folder, "Stubs", "h", "evil"))
    with open(os.path.join(folder, "Stubs", "h", "evil", "route.json"), "w") as f:
        f.write('{"method": "POST", "path": "/evil"}')
    with open(os.path.join(folder, "Stubs", "h", "evil", "200.json"), "w") as f:
        f.write("{}")
    with open(os.path.join(folder, "spec.yaml"), "w") as f:
        f.write(HOSTILE_SPEC)
    proc, ports = start(binary, os.path.join(folder, "Stubs"), extra=["--openapi", os.path.join(folder, "spec.yaml")])
    pattern = post(ports[0], b'{"name": "' + b"a" * 24 + b'!"}', timeout=60)
    tree = post(ports[0], b'{"tree": "x"}', timeout=60)
    done = threading.Event()

    def hammer():
        while not done.is_set():
            post(ports[0], b'{"tree": "x", "name": "' + b"a" * 24 + b'!"}', timeout=5)
    workers = [threading.Thread(target=hammer) for _ in range(8)]
    for w in workers:
        w.start()
    time.sleep(1)
    sigterm = stop(proc)
    done.set()
    for w in workers:
        w.join()
    shutil.rmtree(folder, ignore_errors=True)
    return {"pattern request s": round(pattern, 3), "anyOf request s": round(tree, 3), "SIGTERM s": round(sigterm, 3) if sigterm else "killed"}


# ---------------------------------------------------------------------------------- files, reload

def fetch(port, path="/hello", timeout=1):
    try:
        return raw(port, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(), wait=timeout)
    except OSError:
        return b""


def small_stubs(folder, greeting="hello"):
    os.makedirs(os.path.join(folder, "svc", "hello"), exist_ok=True)
    with open(os.path.join(folder, "svc", "hello", "route.json"), "w") as f:
        f.write('{"method": "GET", "path": "/hello"}')
    with open(os.path.join(folder, "svc", "hello", "200.json"), "w") as f:
        f.write(json.dumps({"greeting": greeting}))


def reload(binary):
    folder = tempfile.mkdtemp(prefix="stubd-hostile-reload-")
    stubs = os.path.join(folder, "Stubs")
    small_stubs(stubs)
    proc, ports = start(binary, stubs)
    shutil.rmtree(stubs)
    time.sleep(0.5)
    small_stubs(stubs, "back")
    began = time.monotonic()
    seen = None
    while time.monotonic() - began < 10:
        if b"back" in fetch(ports[0]):
            seen = time.monotonic() - began
            break
        time.sleep(0.05)
    stop(proc)
    shutil.rmtree(folder, ignore_errors=True)
    return {"served again after s": round(seen, 2) if seen is not None else "never (10 s)"}


def special(binary):
    rows = {}
    for kind in ("fifo", "/dev/zero"):
        folder = tempfile.mkdtemp(prefix="stubd-hostile-special-")
        stubs = os.path.join(folder, "Stubs")
        small_stubs(stubs)
        proc, ports = start(binary, stubs)
        target = os.path.join(stubs, "svc", "hello", "500.json")
        if kind == "fifo":
            os.mkfifo(target)
        else:
            os.symlink("/dev/zero", target)
        time.sleep(3)
        health = fetch(ports[0], "/__stubd/health", timeout=3)
        status = "degraded" if b'"degraded"' in health else ("ok" if b'"ok"' in health else "no answer")
        rss = rss_mb(proc.pid)
        sigterm = stop(proc, cap=10)
        rows[kind] = {"health": status, "RSS MB": round(rss), "SIGTERM s": round(sigterm, 2) if sigterm else "killed after 10 s"}
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def halfclose(binary):
    proc, ports = start(binary, os.path.join(ROOT, "Stubs"))
    sockets = []
    for _ in range(100):
        s = socket.create_connection(("127.0.0.1", ports[0]))
        # Corked, so the request and the FIN leave in one segment and reach the server in one read.
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
        s.sendall(b"GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        s.shutdown(socket.SHUT_WR)
        sockets.append(s)
    time.sleep(2)
    still = 0
    for s in sockets:
        s.settimeout(0.2)
        try:
            data = s.recv(65536)
            while data:
                data = s.recv(65536)
        except socket.timeout:
            still += 1
        except OSError:
            pass
        s.close()
    stop(proc)
    return {"open after 2 s": still}


def admin(binary):
    proc, ports = start(binary, os.path.join(ROOT, "Stubs"))
    steps = ",".join(['"200"'] * (15 * 1024 * 1024 // 6))
    body = ('{"sequence": [' + steps + "]}").encode()
    try:
        answer = raw(ports[0], b"PUT /__stubd/routes/app/users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Stub-Session: s1\r\nConnection: close\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n" + body, wait=30)
    except OSError:
        answer = b"HTTP/1.1 reset"
    status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.1") else "none"
    time.sleep(1)
    rss = rss_mb(proc.pid)
    stop(proc)
    return {"status": status, "RSS MB after": round(rss)}


# ------------------------------------------------------------------------------------ record, proxy

def record(binary):
    folder = tempfile.mkdtemp(prefix="stubd-hostile-record-")
    upstream_stubs = os.path.join(folder, "Up")
    os.makedirs(os.path.join(upstream_stubs, "up", "blob"))
    with open(os.path.join(upstream_stubs, "up", "blob", "route.json"), "w") as f:
        f.write('{"method": "GET", "path": "/blob/{id}", "variants": {"200": {"template": true}}}')
    with open(os.path.join(upstream_stubs, "up", "blob", "200.txt"), "w") as f:
        f.write("{{path.id}} " + "x" * 65536)
    upstream, up_ports = start(binary, upstream_stubs)
    out = os.path.join(folder, "Recorded")
    rec = subprocess.Popen([binary, "record", "--upstream", f"http://127.0.0.1:{up_ports[0]}", "--stubs", out, "--host", "127.0.0.1", "--port", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = rec.stdout.readline()
    port = int(__import__("re").search(r"127\.0\.0\.1:(\d+)", line).group(1))
    times = []
    rss_first = None
    for i in range(1000):
        began = time.monotonic()
        raw(port, f"GET /blob/{i} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(), wait=30)
        times.append(time.monotonic() - began)
        if i == 9:
            rss_first = rss_mb(rec.pid)
    rss_last = rss_mb(rec.pid)
    stop(rec, cap=60)
    stop(upstream)
    shutil.rmtree(folder, ignore_errors=True)
    first = sum(times[:10]) / 10
    last = sum(times[-10:]) / 10
    return {"first 10 ms": round(first * 1000, 1), "last 10 ms": round(last * 1000, 1), "last/first": round(last / first, 2),
            "RSS MB at 10": round(rss_first), "RSS MB at 1000": round(rss_last)}


def proxy(binary):
    folder = tempfile.mkdtemp(prefix="stubd-hostile-proxy-")
    up = os.path.join(folder, "Up")
    os.makedirs(os.path.join(up, "up", "slow"))
    os.makedirs(os.path.join(up, "up", "fast"))
    with open(os.path.join(up, "up", "slow", "route.json"), "w") as f:
        f.write('{"method": "GET", "path": "/slow", "variants": {"200": {"delay": {"ms": 3000}}}}')
    with open(os.path.join(up, "up", "slow", "200.json"), "w") as f:
        f.write("{}")
    with open(os.path.join(up, "up", "fast", "route.json"), "w") as f:
        f.write('{"method": "GET", "path": "/fast"}')
    with open(os.path.join(up, "up", "fast", "200.json"), "w") as f:
        f.write("{}")
    front = os.path.join(folder, "Front")
    os.makedirs(front)
    upstream, up_ports = start(binary, up)
    proc, ports = start(binary, front, extra=["--proxy-unmatched", f"http://127.0.0.1:{up_ports[0]}"])
    workers = [threading.Thread(target=lambda: fetch(ports[0], "/slow", timeout=30)) for _ in range(60)]
    for w in workers:
        w.start()
    time.sleep(0.5)
    with open(f"/proc/{proc.pid}/status") as f:
        threads = next(int(line.split()[1]) for line in f if line.startswith("Threads:"))
    began = time.monotonic()
    fetch(ports[0], "/fast", timeout=30)
    fast = time.monotonic() - began
    for w in workers:
        w.join()
    stop(proc)
    stop(upstream)
    shutil.rmtree(folder, ignore_errors=True)
    return {"fast call s": round(fast, 2), "threads while 60 wait": threads}


def uploads(binary):
    """100 concurrent 16 MiB uploads, sent in full at once: peak RSS while they are in flight."""
    proc, ports = start(binary, os.path.join(ROOT, "Stubs"))
    body = b'{"oldPassword": "' + b"x" * (16 * 1024 * 1024 - 64) + b'"}'
    head = (f"POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    statuses = []
    peak = [0.0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(proc.pid))
            done.wait(0.05)

    def send():
        try:
            answer = raw(proc_port, head + body, wait=60)
            statuses.append(answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.1") else "none")
        except OSError:
            statuses.append("reset")
    proc_port = ports[0]
    sampler = threading.Thread(target=sample)
    sampler.start()
    workers = [threading.Thread(target=send) for _ in range(100)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    done.set()
    sampler.join()
    stop(proc)
    counts = {k: statuses.count(k) for k in sorted(set(statuses))}
    return {"peak RSS MB": round(peak[0]), "statuses": counts}


SCENARIOS = {"fold": fold, "uploads": uploads, "yaml": yaml, "redos": redos, "reload": reload, "special": special, "halfclose": halfclose,
             "admin": admin, "record": record, "proxy": proxy}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--before", required=True)
    p.add_argument("--after")
    p.add_argument("--only", nargs="*", choices=list(SCENARIOS) + ["slow"])
    a = p.parse_args()
    raise_fd_limit()
    after = a.after or build_release()
    same_bytes(a.before, after)
    chosen = a.only or list(SCENARIOS) + ["slow"]
    for name in chosen:
        if name == "slow":
            for kind in ("head", "body"):
                for tls in (False, True):
                    rows = [slow(b, kind, tls) for b in (a.before, after)]
                    print(f"slow {kind if kind == 'head' else 'bodie'}s over {'TLS' if tls else 'HTTP'}: before {rows[0]}  after {rows[1]}", flush=True)
            continue
        rows = [SCENARIOS[name](b) for b in (a.before, after)]
        print(f"{name}: before {rows[0]}\n{' ' * len(name)}  after  {rows[1]}", flush=True)


if __name__ == "__main__":
    main()
