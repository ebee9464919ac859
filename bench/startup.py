#!/usr/bin/env python3
"""Start time, idle memory and weight of the daemon as `make run` starts it: `stubd serve` with
the shipped Stubs and the default settings (localhost on both loopbacks, text log, watching), on
a free port. For each binary given (the first is the reference the ratios are against):

  - start: milliseconds from spawning to the first line on standard output (printed once the
    stubs are loaded and the sockets bound), median of --runs starts;
  - idle RSS: VmRSS one second after start;
  - the binary's size and how many shared libraries `ldd` lists, and whether ICU, full
    Foundation, libcurl or OpenSSL are among them.

Before timing, each binary must answer GET /api/v1/users/1 with the same bytes as the first.

usage: bench/startup.py [--runs N] [--binary PATH ...]   (default: this checkout's release build)
"""
import argparse
import os
import re
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_release, median, print_table, rss_mb, sigterm  # noqa: E402

HEAVY = re.compile(r"lib_FoundationICU|libFoundation\.so|libFoundationNetworking|libcurl|libssl|libcrypto")


def start(binary):
    """One start: (milliseconds to the first line, the process, its base URL)."""
    began = time.monotonic()
    proc = subprocess.Popen([binary, "serve", "--stubs", os.path.join(ROOT, "Stubs"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    ms = (time.monotonic() - began) * 1000
    m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not m:
        proc.kill()
        raise SystemExit(f"{binary} did not start: {line!r}")
    return ms, proc, f"http://127.0.0.1:{m.group(1)}"


def answer(base):
    with urllib.request.urlopen(base + "/api/v1/users/1", timeout=5) as r:
        return r.read()


def libraries(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    return names, sorted({HEAVY.search(n).group(0) for n in names if HEAVY.search(n)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", action="append")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    binaries = args.binary or [build_release()]
    reference = None
    for binary in binaries:
        _, proc, base = start(binary)
        body = answer(base)
        sigterm(proc)
        if reference is None:
            reference = body
        elif body != reference:
            raise SystemExit(f"{binary} answers other bytes than {binaries[0]}")
    rows = []
    first = None
    for binary in binaries:
        starts, rss = [], []
        for i in range(args.runs):
            ms, proc, base = start(binary)
            starts.append(ms)
            if i < 3:
                time.sleep(1)
                rss.append(rss_mb(proc.pid))
            sigterm(proc)
        names, heavy = libraries(binary)
        row = {"binary": binary, "start ms (median)": round(median(starts), 1), "idle RSS MB": round(median(rss), 2),
               "size MB": round(os.path.getsize(binary) / 1e6, 1), "shared libraries": len(names),
               "ICU/Foundation/curl/OpenSSL": ", ".join(heavy) or "none"}
        if first is None:
            first = row
        else:
            row["start ratio"] = round(row["start ms (median)"] / first["start ms (median)"], 2)
            row["RSS ratio"] = round(row["idle RSS MB"] / first["idle RSS MB"], 2)
        rows.append(row)
    for row in rows:
        row.setdefault("start ratio", 1.0)
        row.setdefault("RSS ratio", 1.0)
    print_table(rows)


if __name__ == "__main__":
    main()
