"""A TCP proxy in front of a store, for the fleet tests: forwards every connection to
127.0.0.1:PORT both ways and prints its own port. A test pauses it (SIGSTOP) to hold one replica's
commands in flight while the store itself goes on answering the others, then resumes it (SIGCONT)
to deliver them late, as a network that stalled would."""
import socket
import sys
import threading

UPSTREAM = int(sys.argv[1])


def pump(source, sink):
    """Copies until `source` ends, then ends `sink`'s direction (FIN, not RST: what was sent arrives)."""
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    try:
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def main():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()
        try:
            store = socket.create_connection(("127.0.0.1", UPSTREAM))
        except OSError:
            client.close()
            continue
        for source, sink in ((client, store), (store, client)):
            threading.Thread(target=pump, args=(source, sink), daemon=True).start()


main()
