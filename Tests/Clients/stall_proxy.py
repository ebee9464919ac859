"""A TCP proxy in front of a store, for the fleet tests: forwards every connection to
127.0.0.1:PORT both ways and prints its own port. With PATTERN, the first bytes a client sends
that contain PATTERN are held (with whatever that client sends after them) until the proxy gets
SIGUSR1, and `held` is printed when they are: a path to the store that stalls in the middle of a
call, after the store answered the call's first command and before it read the change. Until
then, and on every other connection, bytes go through as they come."""
import signal
import socket
import sys
import threading

UPSTREAM = int(sys.argv[1])
PATTERN = sys.argv[2].encode() if len(sys.argv) > 2 else None
released = threading.Event()
held_once = threading.Lock()


def pump(source, sink, hold):
    """Copies until `source` ends, then ends `sink`'s direction (FIN, not RST: what was sent arrives)."""
    # SIGUSR1 for the main thread only: Python runs the handler there, woken from accept by it.
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            if hold and PATTERN in data and held_once.acquire(blocking=False):
                # Nothing more is read from this client meanwhile: what it sends later (its close,
                # once it gives up) stays behind the held bytes, as on a stalled path.
                print("held", flush=True)
                released.wait()
            sink.sendall(data)
    except OSError:
        pass
    try:
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def main():
    signal.signal(signal.SIGUSR1, lambda *_: released.set())
    # A child of the test process may start with signals blocked.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGUSR1])
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
        threading.Thread(target=pump, args=(client, store, PATTERN is not None), daemon=True).start()
        threading.Thread(target=pump, args=(store, client, False), daemon=True).start()


main()
