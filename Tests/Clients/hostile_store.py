"""A store that misbehaves, for stubd serve --state: prints its port, then answers every
connection as MODE says. trickle: `$1000000\r\n`, then one byte every 100 ms. silent: accepts and
never answers. garbage: bytes that are not RESP. huge: a 100 MB bulk string, sent as fast as it
can be. array: an array header claiming 2,147,483,647 elements, then nothing. tls-trickle CERT
KEY: TLS (a real handshake with that certificate), then one record holding a 16 KB reply, its
bytes sent one every 100 ms."""
import socket
import ssl
import sys
import threading
import time

MODE = sys.argv[1]


def tls_trickle(conn):
    """Handshakes through memory buffers, so that the encrypted bytes can be paced by hand."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_side=True)
    while True:
        try:
            tls.do_handshake()
            break
        except ssl.SSLWantReadError:
            conn.sendall(outgoing.read())
            data = conn.recv(65536)
            if not data:
                return
            incoming.write(data)
    conn.sendall(outgoing.read())
    # The first command, then one reply in one record, paced.
    while True:
        try:
            tls.read(65536)
            break
        except ssl.SSLWantReadError:
            data = conn.recv(65536)
            if not data:
                return
            incoming.write(data)
    tls.write(b"$16000\r\n" + b"x" * 16000 + b"\r\n")
    record = outgoing.read()
    for i in range(len(record)):
        conn.sendall(record[i:i + 1])
        time.sleep(0.1)


def serve(conn):
    try:
        if MODE != "tls-trickle":
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
        elif MODE == "array":
            conn.sendall(b"*2147483647\r\n")
            while conn.recv(65536):
                pass
        elif MODE == "tls-trickle":
            tls_trickle(conn)
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
