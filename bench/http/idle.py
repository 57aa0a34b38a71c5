"""Opens N keep-alive connections, makes one request on each, then holds them idle.

Usage: idle.py PORT COUNT HOLD_SECONDS PATH. Prints 'READY n' once all are idle, then sleeps and exits."""
import socket, sys, time

port, count, hold, path = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
sockets = []
request = ("GET %s HTTP/1.1\r\nHost: bench\r\n\r\n" % path).encode()
for _ in range(count):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int([l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0].split(b":")[1])
    while len(body) < length:
        body += s.recv(4096)
    sockets.append(s)
print("READY %d" % len(sockets), flush=True)
time.sleep(hold)
