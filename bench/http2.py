#!/usr/bin/env python3
"""HTTP/2 on the HTTPS port: stubd against nginx, and HTTP/1.1 on both ports before and after it.

Default mode (--binary B): HTTP/2 throughput of stubd's HTTPS port against nginx serving the same
bytes over HTTP/2 with the same certificate. Both answer GET /api/v1/users/1 of the shipped stubs:
stubd from its stub, nginx from a file holding the bytes stubd answered, with the same
Content-Type, `access_log off`, no limit on requests per connection
(nginx's default closes each after 1,000) and one worker process (stubd runs `--threads 1 --log off
--no-watch`; its HTTP/2 engine is one thread). nginx 1.22 (Debian 12) is given `listen PORT ssl
http2;`, 1.25.1 and later `http2 on;`. Before timing, curl --http2 must get HTTP/2 200 from both
with byte-identical bodies and the same Content-Type. Then h2load (one thread) over TLS with ALPN
h2 in two shapes, `-c 50 -m 10` (many connections, ten streams each) and `-c 1 -m 100` (one
connection, a hundred streams), for --seconds each, rounds alternating stubd and nginx (which
goes first alternates too). Printed: req/s per round, the medians and stubd/nginx per shape
(the median of the per-round ratios, and its range). A round whose h2load reports any failed or
errored request, a status other than 2xx, or a protocol other than h2 stops the run.

Baseline mode (--baseline B0 --binary B1): the HTTP/1.1 regression of two stubd builds (before
and after HTTP/2), both serving the shipped stubs on a plain and an HTTPS port, paired rounds
alternating between them. Shapes:
  tls-keepalive  h2load --h1 -c 50 (ALPN http/1.1, keep-alive) against the HTTPS port
  plain          wrk -t1 -c50 against the plain port (h2load --h1 -c 50 when wrk is missing)
  tls-new-conn   one TLS connection per request: h2load --h1 -c 100 -n 100 (each of the 100
                 clients opens its own connection, handshakes, sends one request and closes),
                 run again and again for --seconds; the rate is the requests answered over the
                 time h2load reports for its batches (its start-up is not counted)
Printed: req/s per round, the medians and B1/B0 per shape (median and range of the per-round
ratios).

Servers run on core 1 and the load generator on core 0 (taskset), as in paired.py; --no-pin
turns that off. Needs h2load and curl (apt-get install nghttp2-client curl), nginx for the default
mode (apt-get install nginx), wrk optionally. A smoke run (--seconds 1 --rounds 1) takes well under
a minute; numbers worth quoting want a release build and more rounds.

  bench/http2.py --binary .build/release/stubd [--seconds 3] [--rounds 5] [--no-pin]
  bench/http2.py --baseline /tmp/stubd-before --binary /tmp/stubd-after [--seconds 3] [--rounds 5]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Server, free_port, median, stubd_command, wait_for_port, wrk  # noqa: E402

FIXTURE = "/api/v1/users/1"
H2_SHAPES = {"c50-m10": ["-c", "50", "-m", "10"], "c1-m100": ["-c", "1", "-m", "100"]}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", default=os.path.join(ROOT, ".build/release/stubd"), help="the stubd binary under test")
    p.add_argument("--baseline", help="a stubd binary from before HTTP/2: compare HTTP/1.1 of the two instead of HTTP/2 against nginx")
    p.add_argument("--stubs", default=os.path.join(ROOT, "Stubs"), help="stub folder (default: the shipped Stubs)")
    p.add_argument("--seconds", type=int, default=2, help="seconds per timed run")
    p.add_argument("--rounds", type=int, default=2, help="rounds per server and shape")
    p.add_argument("--no-pin", action="store_true", help="do not pin the servers to core 1 and the load generator to core 0")
    return p.parse_args()


def require(tool, package):
    if not shutil.which(tool):
        sys.exit(f"http2: {tool} is not installed (apt-get install {package}); nothing run")


def server_cmd(a, cmd):
    return cmd if a.no_pin else ["taskset", "-c", "1", *cmd]


def load_cmd(a, cmd):
    return cmd if a.no_pin else ["taskset", "-c", "0", *cmd]


def make_tls(binary, work):
    """The CA, certificate and key `stubd tls init` writes, in WORK/tls (HOME pointed at WORK)."""
    tls = os.path.join(work, "tls")
    env = dict(os.environ, HOME=work)
    subprocess.run([binary.split()[0], "tls", "init", "--tls-dir", tls], env=env, check=True, stdout=subprocess.DEVNULL)
    for name in ("ca.pem", "server.pem", "server-key.pem"):
        if not os.path.exists(os.path.join(tls, name)):
            sys.exit(f"http2: `stubd tls init --tls-dir {tls}` wrote no {name}")
    return tls


def start_stubd(a, binary, name, work, tls):
    """A stubd with a plain and an HTTPS port; (server, https port)."""
    tls_port = free_port()
    cmd = stubd_command(binary, a.stubs, "--tls-port", str(tls_port), "--tls-dir", tls)
    server = Server(name, server_cmd(a, cmd), os.path.join(work, f"{name}.out"), ready_path=FIXTURE)
    wait_for_port(tls_port, 10)
    return server, tls_port


def curl(url, ca, version_flag):
    """(HTTP version, status, content type, body) of one curl GET."""
    out = subprocess.run(["curl", "-sS", version_flag, "--cacert", ca, "-o", "-", "-w", "\n%{http_version} %{http_code} %{content_type}", url],
                         capture_output=True, timeout=30)
    if out.returncode != 0:
        sys.exit(f"http2: curl {version_flag} {url} failed: {out.stderr.decode(errors='replace').strip()}")
    body, _, trailer = out.stdout.rpartition(b"\n")
    version, status, ctype = (trailer.decode().split(" ", 2) + ["", ""])[:3]
    return version, status, ctype, body


def h2load(a, url, shape_args, seconds=None, requests=None, h1=False):
    """One h2load run: a dict of rps, done, succeeded, failed, errored, non2xx, protocol, seconds."""
    cmd = ["h2load", "-t", "1", *shape_args]
    if h1:
        cmd.append("--h1")
    cmd += ["-D", str(seconds)] if seconds else ["-n", str(requests)]
    out = subprocess.run(load_cmd(a, [*cmd, url]), capture_output=True, text=True, timeout=(seconds or 30) + 60)
    text = out.stdout + out.stderr
    m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", text)
    fin = re.search(r"finished in ([\d.]+)(us|ms|s), ([\d.]+) req/s", text)
    codes = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text)
    if not (m and fin and codes):
        sys.exit(f"http2: h2load gave no summary ({' '.join(cmd)} {url}):\n{text[-2000:]}")
    proto = re.search(r"Application protocol: (\S+)", text)
    scale = {"us": 1e-6, "ms": 1e-3, "s": 1.0}[fin.group(2)]
    return {"rps": float(fin.group(3)), "seconds": float(fin.group(1)) * scale, "done": int(m.group(3)), "succeeded": int(m.group(4)),
            "failed": int(m.group(5)), "errored": int(m.group(6)), "timeout": int(m.group(7)),
            "non2xx": sum(int(x) for x in codes.groups()[1:]), "protocol": proto.group(1) if proto else "?"}


def note_round(results, shape, r, name, res, protocol):
    """Checks one timed run (see check_run), keeps its rate and prints its line."""
    check_run(f"{shape} round {r + 1} {name}", res, protocol)
    results.setdefault(shape, {}).setdefault(name, []).append(res["rps"])
    print(f"  {shape} round {r + 1}: {name:5s} {res['rps']:9.0f} req/s ({res['succeeded']} succeeded, "
          f"{res['failed']} failed, {res['errored']} errored)", flush=True)


def check_run(label, res, protocol):
    """Stops the run when h2load saw failures, non-2xx answers or the wrong protocol."""
    bad = res["failed"] or res["errored"] or res["timeout"] or res["non2xx"] or res["protocol"] != protocol
    if bad or not res["succeeded"]:
        sys.exit(f"http2: {label}: {res['failed']} failed, {res['errored']} errored, {res['timeout']} timeout, "
                 f"{res['non2xx']} non-2xx, protocol {res['protocol']} (wanted {protocol}); round not counted, run stopped")


def print_summary(results, reference, other, shapes):
    """Medians per server and shape, and OTHER/REFERENCE (median and range of the per-round ratios)."""
    print(f"\n{'shape':14s} {reference:>12s} {other:>12s} {other + '/' + reference:>16s} {'range':>13s}")
    for shape in shapes:
        ref, oth = results[shape][reference], results[shape][other]
        ratios = [o / r for o, r in zip(oth, ref)]
        print(f"{shape:14s} {median(ref):12.0f} {median(oth):12.0f} {median(ratios):16.3f} {min(ratios):6.3f}-{max(ratios):.3f}")


def nginx_conf(work, port, www, tls, content_type):
    version = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
    m = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", version)
    if not m:
        sys.exit(f"http2: cannot read nginx's version from {version!r}")
    modern = tuple(int(x) for x in m.groups()) >= (1, 25, 1)
    listen = f"listen 127.0.0.1:{port} ssl;\n    http2 on;" if modern else f"listen 127.0.0.1:{port} ssl http2;"
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""worker_processes 1;
daemon off;
error_log {work}/nginx-error.log;
pid {work}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  keepalive_requests 100000000;
  client_body_temp_path {work}/client_body;
  proxy_temp_path {work}/proxy;
  fastcgi_temp_path {work}/fastcgi;
  uwsgi_temp_path {work}/uwsgi;
  scgi_temp_path {work}/scgi;
  types {{ }}
  default_type "{content_type}";
  server {{
    {listen}
    ssl_certificate {tls}/server.pem;
    ssl_certificate_key {tls}/server-key.pem;
    root {www};
  }}
}}
""")
    return conf, version.split(": ")[-1]


def http2_mode(a):
    require("nginx", "nginx")
    require("h2load", "nghttp2-client")
    require("curl", "curl")
    work = tempfile.mkdtemp(prefix="stubd-h2-")
    os.chmod(work, 0o755)  # nginx's worker runs as another user when started as root
    servers = []
    try:
        tls = make_tls(a.binary, work)
        stubd, stubd_tls = start_stubd(a, a.binary, "stubd", work, tls)
        servers.append(stubd)
        ca = os.path.join(tls, "ca.pem")
        version, status, ctype, body = curl(f"https://127.0.0.1:{stubd_tls}{FIXTURE}", ca, "--http2")
        if (version, status) != ("2", "200"):
            sys.exit(f"http2: stubd answers {FIXTURE} over TLS with HTTP/{version} {status}, not HTTP/2 200; not timing it")
        www = os.path.join(work, "www")
        os.makedirs(os.path.join(www, os.path.dirname(FIXTURE.lstrip("/"))))
        with open(os.path.join(www, FIXTURE.lstrip("/")), "wb") as f:
            f.write(body)
        for dirpath, _, files in os.walk(www):
            os.chmod(dirpath, 0o755)
            for name in files:
                os.chmod(os.path.join(dirpath, name), 0o644)
        port = free_port()
        conf, nginx_version = nginx_conf(work, port, www, tls, ctype)
        nginx = Server("nginx", server_cmd(a, ["nginx", "-e", os.path.join(work, "nginx-error.log"), "-p", work, "-c", conf]),
                       os.path.join(work, "nginx.out"), port=port)
        servers.append(nginx)
        wait_for_port(port, 10)
        urls = {"stubd": f"https://127.0.0.1:{stubd_tls}{FIXTURE}", "nginx": f"https://127.0.0.1:{port}{FIXTURE}"}
        for name, url in urls.items():
            got = curl(url, ca, "--http2")
            if got[:2] != ("2", "200") or got[3] != body or got[2] != ctype:
                sys.exit(f"http2: {name} answers {url} with HTTP/{got[0]} {got[1]}, {got[2]!r}, {len(got[3])} bytes; "
                         f"stubd's answer is HTTP/2 200, {ctype!r}, {len(body)} bytes; not timing it")
        print(f"stubd {a.binary} against {nginx_version}: GET {FIXTURE} ({len(body)} bytes, {ctype}) over TLS, ALPN h2, "
              f"h2load -t1 -D {a.seconds}s, {a.rounds} rounds{'' if a.no_pin else ', servers on core 1, h2load on core 0'}", flush=True)
        results = {}
        for shape, shape_args in H2_SHAPES.items():
            for r in range(a.rounds):
                order = ["stubd", "nginx"] if r % 2 == 0 else ["nginx", "stubd"]
                for name in order:
                    res = h2load(a, urls[name], shape_args, seconds=a.seconds)
                    note_round(results, shape, r, name, res, "h2")
        print_summary(results, "nginx", "stubd", H2_SHAPES)
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


def new_connections(a, url, seconds):
    """tls-new-conn: batches of h2load --h1 -c 100 -n 100 for SECONDS; (req/s over h2load's own time, totals)."""
    total = {"rps": 0.0, "seconds": 0.0, "done": 0, "succeeded": 0, "failed": 0, "errored": 0, "timeout": 0, "non2xx": 0, "protocol": "http/1.1"}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        res = h2load(a, url, ["-c", "100"], requests=100, h1=True)
        for key in ("seconds", "done", "succeeded", "failed", "errored", "timeout", "non2xx"):
            total[key] += res[key]
        if res["protocol"] != "http/1.1":
            total["protocol"] = res["protocol"]
    total["rps"] = total["succeeded"] / total["seconds"] if total["seconds"] else 0.0
    return total


def baseline_mode(a):
    require("h2load", "nghttp2-client")
    require("curl", "curl")
    use_wrk = shutil.which("wrk") is not None
    work = tempfile.mkdtemp(prefix="stubd-h1-")
    servers = {}
    try:
        tls = make_tls(a.binary, work)
        ca = os.path.join(tls, "ca.pem")
        for name, binary in (("B0", a.baseline), ("B1", a.binary)):
            servers[name] = start_stubd(a, binary, name, work, tls)
        reference = None
        for name, (server, tls_port) in servers.items():
            for label, url in (("plain", server.url(FIXTURE)), ("TLS", f"https://127.0.0.1:{tls_port}{FIXTURE}")):
                got = curl(url, ca, "--http1.1")
                if got[:2] != ("1.1", "200"):
                    sys.exit(f"http2: {name} answers {url} with HTTP/{got[0]} {got[1]}, not HTTP/1.1 200; not timing it")
                if reference is None:
                    reference = got[2:]
                elif got[2:] != reference:
                    sys.exit(f"http2: {name} answers {FIXTURE} ({label}) with {got[2]!r}, {len(got[3])} bytes, not the bytes "
                             f"B0 answered ({reference[0]!r}, {len(reference[1])} bytes); not timing it")
        print(f"B0 {a.baseline} against B1 {a.binary}: GET {FIXTURE} ({len(reference[1])} bytes) over HTTP/1.1, "
              f"{a.seconds}s per run, {a.rounds} rounds{'' if a.no_pin else ', servers on core 1, load on core 0'}; "
              f"plain port load: {'wrk -t1 -c50' if use_wrk else 'h2load --h1 -c 50 (wrk not installed)'}", flush=True)
        shapes = ("tls-keepalive", "plain", "tls-new-conn")
        results = {}
        for shape in shapes:
            for r in range(a.rounds):
                for name in (["B0", "B1"] if r % 2 == 0 else ["B1", "B0"]):
                    server, tls_port = servers[name]
                    tls_url = f"https://127.0.0.1:{tls_port}{FIXTURE}"
                    if shape == "tls-keepalive":
                        res = h2load(a, tls_url, ["-c", "50"], seconds=a.seconds, h1=True)
                    elif shape == "tls-new-conn":
                        res = new_connections(a, tls_url, a.seconds)
                    elif use_wrk:
                        w = wrk(server.url(FIXTURE), a.seconds, cpu=None if a.no_pin else 0)
                        res = {"rps": w["rps"], "succeeded": w["requests"] - w["non2xx"], "failed": 0, "errored": w["errors"],
                               "timeout": 0, "non2xx": w["non2xx"], "protocol": "http/1.1"}
                    else:
                        res = h2load(a, server.url(FIXTURE), ["-c", "50"], seconds=a.seconds, h1=True)
                    note_round(results, shape, r, name, res, "http/1.1")
        print_summary(results, "B0", "B1", shapes)
    finally:
        for server, _ in servers.values():
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


def main():
    a = parse_args()
    return baseline_mode(a) if a.baseline else http2_mode(a)


if __name__ == "__main__":
    sys.exit(main())
