#!/usr/bin/env python3
"""A webhook receiver for tests: Python's http.server on a free loopback port.

It prints "listening on PORT" on stdout, then logs every request as one JSON line in
STATE/requests.jsonl: the path, headers, body, whether the Standard Webhooks signature verifies
(with Python's own hmac, against the secrets in STATE/secrets.json: {"/path": "whsec_..."}), and
whether its webhook-id was seen before (receivers deduplicate by it).

How it answers depends on the path:
  /ok                  200
  /fail/N              500 for the first N requests to this path, then 200
  /slow/N/SECONDS      answers the first N requests after SECONDS, then at once (200)
  /retry-after/S       the first request gets 503 with Retry-After: S, then 200
  /redirect            302 to /ok (which must not be followed)
  /big                 200 with a 1 MiB body
  /hang                never answers (until the process ends)
"""
import base64, hashlib, hmac, json, os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = sys.argv[sys.argv.index("--state") + 1]
LOCK = threading.Lock()
COUNTS = {}
SEEN = set()


def verify(secret, headers, body):
    if not secret:
        return None
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    signed = f"{headers.get('webhook-id', '')}.{headers.get('webhook-timestamp', '')}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for part in headers.get("webhook-signature", "").split(" "):
        version, _, value = part.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return True
    return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            secrets = json.load(open(os.path.join(STATE, "secrets.json")))
        except (OSError, ValueError):
            secrets = {}
        parts = self.path.split("?")[0].strip("/").split("/")
        base = "/" + parts[0]
        with LOCK:
            count = COUNTS.get(self.path, 0) + 1
            COUNTS[self.path] = count
            message = headers.get("webhook-id")
            duplicate = message in SEEN
            SEEN.add(message)
            record = {"path": self.path, "headers": headers, "body": body.decode("utf-8", "replace"), "time": time.time(),
                      "verified": verify(secrets.get(self.path) or secrets.get(base), headers, body), "duplicate": duplicate,
                      "n": count}
            with open(os.path.join(STATE, "requests.jsonl"), "a") as log:
                log.write(json.dumps(record) + "\n")
        status, extra, payload = 200, {}, b"ok"
        if base == "/fail" and count <= int(parts[1]):
            status, payload = 500, b"failing on purpose"
        elif base == "/slow" and count <= int(parts[1]):
            time.sleep(float(parts[2]))
        elif base == "/retry-after" and count == 1:
            status, extra = 503, {"Retry-After": parts[1]}
        elif base == "/redirect":
            status, extra = 302, {"Location": "/ok"}
        elif base == "/big":
            payload = b"x" * (1 << 20)
        elif base == "/hang":
            time.sleep(3600)
        self.send_response(status)
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except OSError:
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"listening on {server.server_address[1]}", flush=True)
server.serve_forever()
