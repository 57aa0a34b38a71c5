"""Keeps N slowloris connections open: each sends a partial request head and one more header line
every INTERVAL seconds, never finishing it; closed connections are replaced. Stops after DURATION.

Usage: slowloris.py PORT COUNT DURATION INTERVAL"""
import socket, sys, time

port, count, duration, interval = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
deadline = time.time() + duration

def connect():
    s = socket.create_connection(("127.0.0.1", port))
    s.setblocking(False)
    s.send(b"GET /hello HTTP/1.1\r\nHost: bench\r\n")
    return s

conns = [connect() for _ in range(count)]
print("OPEN %d" % len(conns), flush=True)
replaced = 0
line = 0
while time.time() < deadline:
    time.sleep(interval)
    line += 1
    for i, s in enumerate(conns):
        try:
            s.send(b"X-Slow-%d: v\r\n" % line)
        except OSError:
            s.close()
            conns[i] = connect()
            replaced += 1
print("REPLACED %d" % replaced, flush=True)
