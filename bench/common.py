"""Helpers shared by the benchmark scripts: start the release daemon, read its stats."""
import os
import re
import resource
import subprocess
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
        cmd = [binary, "serve", "--port", "0", "--log", "off", "--stubs", stubs or os.path.join(ROOT, "Stubs"), *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://([\d.]+):(\d+)", line)
        if not m:
            raise RuntimeError("stubd did not start: " + line + self.proc.stderr.read())
        self.host, self.port = m.group(1), int(m.group(2))
        self.base = f"http://{self.host}:{self.port}"

    def stats(self):
        """Threads and RSS (MB) of the daemon now."""
        threads = rss = 0
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    threads = int(line.split()[1])
                elif line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) / 1024
        return threads, rss

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
