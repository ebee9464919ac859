"""Helpers shared by the benchmark scripts: start the release daemon, read its stats, start other
servers, run wrk, compile the C helpers, write generated stub directories."""
import http.client
import json
import os
import re
import resource
import shlex
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")


def build_release():
    subprocess.run(["swift", "build", "-c", "release", "--product", "stubd"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "stubd")


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


class Daemon:
    """A `stubd serve` process on a free port; stopped with SIGTERM."""

    def __init__(self, binary, *args, stubs=None):
        cmd = [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--log", "off", "--stubs", stubs or os.path.join(ROOT, "Stubs"), *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://([\d.]+):(\d+)", line)
        if not m:
            raise RuntimeError("stubd did not start: " + line + self.proc.stderr.read())
        self.host, self.port = m.group(1), int(m.group(2))
        self.base = f"http://{self.host}:{self.port}"

    def stats(self):
        """Threads and RSS (MB) of the daemon now."""
        return proc_stats(self.proc.pid)

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return r.status, r.read()

    def stop(self):
        start = time.monotonic()
        self.proc.terminate()
        code = self.proc.wait(timeout=10)
        return code, time.monotonic() - start


def percentile(values, p):
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


def median(values):
    return percentile(values, 50)


def proc_stats(pid):
    """Threads and RSS (MB) of a process now."""
    threads = rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Threads:"):
                threads = int(line.split()[1])
            elif line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    return threads, rss


def rss_mb(pid):
    """VmRSS of a process now, in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def compile_c(source, out_dir, *flags):
    """gcc -O2 bench/SOURCE into OUT_DIR; returns the path of the binary (or .so with -shared)."""
    name = os.path.splitext(os.path.basename(source))[0] + (".so" if "-shared" in flags else "")
    out = os.path.join(out_dir, name)
    subprocess.run(["gcc", "-O2", "-Wall", "-o", out, os.path.join(BENCH, source), *flags], check=True)
    return out


def pkg_config(package):
    """Compiler and linker flags for a pkg-config package; exits with an install hint if missing."""
    out = subprocess.run(["pkg-config", "--cflags", "--libs", package], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"pkg-config does not know {package}: apt-get install {package}-dev pkg-config")
    return out.stdout.split()


def stubd_command(binary, stubs, *args, log="off"):
    """`stubd serve` on a free loopback port with one polling thread and no watcher, plus ARGS.
    BINARY may carry serve flags of its own, shell-quoted ("/tmp/stubd-old --connection-memory 15360"),
    so that two builds compare at the same settings when their defaults differ."""
    binary, *own = shlex.split(binary)
    return [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--stubs", stubs, "--threads", "1", "--no-watch", "--log", log, *own, *args]


class Server:
    """A server process on 127.0.0.1. Its stdout goes to LOG_PATH (stderr beside it); the port is
    either given or read from the first output line matching `listening on N` or `http://127.0.0.1:N`.
    With READY_PATH, start waits until a GET of that path gets any HTTP answer."""

    PORT_LINE = re.compile(rb"(?:listening on |http://127\.0\.0\.1:)(\d+)")

    def __init__(self, name, cmd, log_path, port=None, ready_path=None, timeout=60, env=None, cwd=None):
        self.name, self.log_path, self.port = name, log_path, port
        self.started = time.monotonic()
        with open(log_path, "wb") as out, open(log_path + ".err", "wb") as err:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=cwd)
        self.pid = self.proc.pid
        deadline = self.started + timeout
        if self.port is None:
            self.port = self._wait_for_port(deadline)
        if ready_path is not None:
            self._wait_for_answer(ready_path, deadline)

    def _fail(self, why):
        self.stop()
        with open(self.log_path + ".err", "rb") as f:
            err = f.read()[-2000:].decode(errors="replace")
        raise RuntimeError(f"{self.name} {why}: {err}")

    def _wait_for_port(self, deadline):
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as f:
                m = self.PORT_LINE.search(f.read(4096))
            if m:
                return int(m.group(1))
            if self.proc.poll() is not None:
                self._fail(f"exited with {self.proc.returncode} before printing its port")
            time.sleep(0.0005)
        self._fail("printed no port in time")

    def _wait_for_answer(self, path, deadline):
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._fail(f"exited with {self.proc.returncode}")
            try:
                self.get(path, timeout=2)
                return
            except (ConnectionError, OSError, http.client.HTTPException):
                time.sleep(0.002)
        self._fail("did not answer in time")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path, timeout=10, method="GET"):
        """(status, body bytes, headers) of one request on a new connection; HTTP errors are answers too."""
        req = urllib.request.Request(self.url(path), method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read(), r.headers
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers

    def rss(self):
        return rss_mb(self.pid)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def free_port():
    """A loopback port that was free a moment ago (for servers that cannot bind port 0 and tell)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=2):
    """Returns once something accepts on the loopback port, or after `seconds` (the caller's next
    request then says why)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return
        except OSError:
            time.sleep(0.02)


def cpu_seconds(pid):
    """User plus system CPU seconds used so far by process PID and its direct children (an nginx
    master's worker); 0 for a process that is gone."""
    total, pids = 0.0, [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                pids += [int(c) for c in f.read().split()]
    except OSError:
        return 0.0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def wrk(url, seconds, connections=50, script=None, timeout=None, cpu=None):
    """One wrk run with one thread over keep-alive connections: a dict of rps, requests, non2xx
    (responses that were not 2xx/3xx) and errors (socket errors of any kind). With CPU, wrk runs
    on that core only (taskset)."""
    cmd = (["taskset", "-c", str(cpu)] if cpu is not None else []) + ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s"]
    if script:
        cmd += ["-s", script]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True,
                         timeout=timeout or seconds + 30).stdout
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "errors": sum(int(x) for x in m.groups()) if m else 0}


def write_stub_tree(root, routes, base_path="/api/v1", service="app"):
    """A stub directory with one service. ROUTES: (folder, route path, body bytes) triples; each
    route serves its body as 200.json."""
    svc = os.path.join(root, service)
    os.makedirs(svc, exist_ok=True)
    with open(os.path.join(svc, "_service.json"), "w") as f:
        json.dump({"basePath": base_path}, f)
    for folder, path, body in routes:
        d = os.path.join(svc, folder)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "route.json"), "w") as f:
            json.dump({"method": "GET", "path": path}, f)
        with open(os.path.join(d, "200.json"), "wb") as f:
            f.write(body)
    return root


def stub_routes(stubs):
    """Each route of a stub tree, in order: (service, route folder name, service basePath, route.json)."""
    for service in sorted(os.listdir(stubs)):
        folder = os.path.join(stubs, service)
        if service.startswith(".") or not os.path.isdir(folder):
            continue
        base = ""
        if os.path.exists(os.path.join(folder, "_service.json")):
            base = json.load(open(os.path.join(folder, "_service.json"))).get("basePath", "")
        for route in sorted(os.listdir(folder)):
            path = os.path.join(folder, route, "route.json")
            if os.path.exists(path):
                yield service, route, base, json.load(open(path))


def route_table(n):
    """N routes, half literal (/r{i}/items) and half with a parameter (/p{i}/items/{id}): a list of
    (folder, route path, a request path below the base path that matches it, body)."""
    table = []
    for i in range(n):
        body = b'{"id": %d, "name": "route %d"}\n' % (i, i)
        if i % 2 == 0:
            table.append((f"r{i}", f"/r{i}/items", f"/r{i}/items", body))
        else:
            table.append((f"p{i}", f"/p{i}/items/{{id}}", f"/p{i}/items/{i * 7}", body))
    return table


class KeepAlive:
    """One keep-alive HTTP/1.1 connection for timing sequential requests."""

    def __init__(self, port, timeout=30):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def request(self, path, method="GET"):
        """(status, body, seconds) for one request and its whole response."""
        start = time.perf_counter()
        self.conn.request(method, path)
        r = self.conn.getresponse()
        body = r.read()
        return r.status, body, time.perf_counter() - start

    def close(self):
        self.conn.close()


def send_requests(port, path, n, timeout=30):
    """Exactly N sequential GETs of PATH on one keep-alive connection (a minimal client that reads
    each response by its Content-Length); returns how many were answered 200."""
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    ok, buf = 0, b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        for _ in range(n):
            s.sendall(request)
            while b"\r\n\r\n" not in buf:
                chunk = s.recv(65536)
                if not chunk:
                    raise ConnectionError("the server closed the connection")
                buf += chunk
            head, _, buf = buf.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head).group(1))
            while len(buf) < length:
                buf += s.recv(65536)
            buf = buf[length:]
            ok += head.startswith(b"HTTP/1.1 200 ")
    return ok


def print_table(rows):
    """Prints rows (dicts with the same keys) as a markdown table, the keys as its header."""
    columns = list(rows[0])
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" for _ in columns) + "|")
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in columns) + " |")


def sigterm(proc, cap=10):
    """Sends SIGTERM and waits: the seconds the process took to exit, or None when it had to be
    killed after `cap` seconds."""
    began = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=cap)
        return time.monotonic() - began
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


def spread_script(folder, paths, name="spread.lua"):
    """A wrk Lua script in FOLDER that sends the GETs of PATHS in turn, round and round (each
    request formatted once, in init, so the script costs the load generator little)."""
    lua = "local paths = {\n" + "".join(f'  "{p}",\n' for p in paths) + "}\n" + """
local reqs, i = {}, 0
init = function(args)
  for k, p in ipairs(paths) do reqs[k] = wrk.format("GET", p) end
end
request = function()
  i = i % #reqs + 1
  return reqs[i]
end
"""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(lua)
    return path
