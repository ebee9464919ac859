#!/usr/bin/env python3
"""Serves one fixture file with pytest-httpserver, a reference server for bench/request-path.py.
GET PATH answers 200 with the file's bytes and the given Content-Type; werkzeug's per-request log
is turned off (stubd is measured with --log off). The server is threaded, so that keep-alive
connections work (werkzeug speaks HTTP/1.1 only when threaded) and 50 clients are served at once.

usage: pytest-httpserver-fixture.py --path /api/v1/users/1 --file 200.json --content-type TYPE [--port 0]
Prints "pytest-httpserver listening on PORT" once it serves; stops on SIGTERM or SIGINT.
Needs: pip install pytest-httpserver (bench/request-path.py runs it from the venv it documents).
"""
import argparse
import logging
import signal
import threading

from pytest_httpserver import HTTPServer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--path", required=True)
    p.add_argument("--file", required=True)
    p.add_argument("--content-type", required=True)
    p.add_argument("--port", type=int, default=0)
    a = p.parse_args()
    with open(a.file, "rb") as f:
        body = f.read()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = HTTPServer(host="127.0.0.1", port=a.port, threaded=True)
    server.expect_request(a.path, method="GET").respond_with_data(body, content_type=a.content_type)
    server.start()
    print(f"pytest-httpserver listening on {server.port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass
    server.stop()


if __name__ == "__main__":
    main()
