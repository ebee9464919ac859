"""A store that misbehaves, for stubd serve --state: prints its port, then answers every
connection as MODE says. trickle: `$1000000\r\n`, then one byte every 100 ms. silent: accepts and
never answers. garbage: bytes that are not RESP. huge: a 100 MB bulk string, sent as fast as it
can be."""
import socket
import sys
import threading
import time

MODE = sys.argv[1]


def serve(conn):
    try:
        conn.recv(65536)
        if MODE == "trickle":
            conn.sendall(b"$1000000\r\n")
            while True:
                time.sleep(0.1)
                conn.sendall(b"x")
        elif MODE == "silent":
            while conn.recv(65536):
                pass
        elif MODE == "huge":
            conn.sendall(b"$100000000\r\n")
            chunk = b"x" * 1048576
            for _ in range(100):
                conn.sendall(chunk)
        elif MODE == "garbage":
            conn.sendall(b"HTTP/1.1 200 OK\r\n\r\n<html>")
            while conn.recv(65536):
                pass
    except OSError:
        pass
    finally:
        conn.close()


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)
while True:
    conn, _ = listener.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
