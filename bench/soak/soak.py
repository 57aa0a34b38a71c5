#!/usr/bin/env python3
"""Soak test of `betactl serve`: a mixed load for DURATION seconds while the server is killed with
SIGKILL at random moments and restarted, then checks that nothing acknowledged was lost.

Usage: soak.py BETACTL HOME DURATION [--seed N]   (run through bench/soak/run.sh)

The load, from worker threads:
  page       a tester's page, as an iPhone
  manifest   a release's OTA manifest
  download   a release's ipa, whole (the SHA-256 must be the release's) or one random range
  cli-write  `betactl add-tester` / `add-device` from other processes (exit 0 = acknowledged)
  slowloris  connections that trickle a request head and never finish it
  garbage    random bytes and malformed requests
  enroll     the enrollment profile and a device reply           (when the server offers enrollment)
  crash      a crash report upload, duplicates included           (when the server takes crash reports)
  api-release  a release uploaded through the API                 (when the server has an API token)
Actions the server does not offer yet are skipped and reported as such.

At the end: every acknowledged tester, device, crash report and release is in the home; `betactl
verify` is clean; no 5xx came outside a restart window; the server's memory did not grow across the
run. Prints the request mix, errors and p50/p99 latencies as Markdown, and exits 1 on any failure.
"""
import hashlib
import http.client
import json
import os
import plistlib
import random
import re
import signal
import socket
import ssl  # noqa: F401 (urllib may need it)
import subprocess
import sys
import threading
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1")
INSTALLER = "com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 hwmodel/D73AP build/21B74 (6; dt:281)"


class Server:
    """`betactl serve` on a fixed port; killed with SIGKILL and restarted by the chaos thread."""

    def __init__(self, betactl, home, port, log):
        self.betactl, self.home, self.port, self.log = betactl, home, port, log
        self.process = None
        self.lock = threading.Lock()
        self.windows = []  # (start, end) of each restart, during which failures are expected
        self.rss = []      # (time, KiB) samples
        self.lives = []    # the largest RSS (KiB) of each server process that was killed
        self.current_life = 0

    def start(self):
        env = dict(os.environ, BETACTL_HOME=self.home)
        # The soak's crash uploads all come from one key, far above the per-key rate limit, which has
        # tests of its own.
        extra = ["--crash-rate-limit", "0"] if os.environ.get("SOAK_CRASH_KEY") else []
        # The scripted devices sign their replies with a self-made certificate, which a real server
        # refuses: this one takes them in, as requests the approval rule (set in load_state) approves,
        # and without the enrolment rate limit, which has tests of its own.
        self.process = subprocess.Popen([self.betactl, "serve", "--listen", f"127.0.0.1:{self.port}", "--no-access-log",
                                         "--max-connections-per-ip", "0", "--allow-unverified-enrollment",
                                         "--enroll-rate-limit", "0", *extra],
                                        stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("betactl serve did not start")

    def kill_and_restart(self):
        with self.lock:
            # The window opens before the kill, so a request failing while the server restarts is
            # already seen as inside it; it closes a second after the new server answers, for
            # requests that were in flight when the kill landed.
            index = len(self.windows)
            self.windows.append((time.time(), float("inf")))
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.lives.append(self.current_life)
            self.current_life = 0
            self.start()
            self.windows[index] = (self.windows[index][0], time.time() + 1.0)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def sample_rss(self):
        try:
            with open(f"/proc/{self.process.pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        kib = int(line.split()[1])
                        self.rss.append((time.time(), kib))
                        self.current_life = max(self.current_life, kib)
        except OSError:
            pass

    def in_window(self, started, ended):
        return any(start - 0.2 <= ended and started <= end for start, end in self.windows)


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = {}
        self.counts = {}
        self.failures = []  # (action, description, started, ended)
        self.skipped = set()

    def record(self, action, outcome, started, ended):
        with self.lock:
            self.counts.setdefault(action, {}).setdefault(outcome, 0)
            self.counts[action][outcome] += 1
            if outcome == "ok":
                self.latencies.setdefault(action, []).append(ended - started)

    def fail(self, action, description, started, ended):
        with self.lock:
            self.failures.append((action, description, started, ended))


class Soak:
    def __init__(self, betactl, home, duration, seed):
        self.betactl, self.home, self.duration = betactl, home, duration
        self.random = random.Random(seed)
        self.port = int(os.environ.get("SOAK_PORT", "18381"))
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = Server(betactl, home, self.port, open(os.path.join(home, "..", "serve.log"), "ab"))
        self.stats = Stats()
        self.stop_at = time.time() + duration
        self.acknowledged = {"testers": set(), "devices": set(), "crashes": set(), "releases": set()}
        self.ack_lock = threading.Lock()
        self.device_counter = 0
        self.cli_lock = threading.Lock()
        self.crash_key = os.environ.get("SOAK_CRASH_KEY")
        self.api_token = os.environ.get("SOAK_API_TOKEN")
        self.sent_crashes = []  # bodies already acknowledged, resent as duplicates
        self.signer = None      # (certificate, key) a scripted device signs its replies with

    # -- set-up ---------------------------------------------------------------------------------

    def cli(self, *arguments, check=True):
        env = dict(os.environ, BETACTL_HOME=self.home)
        result = subprocess.run([self.betactl, *arguments], capture_output=True, text=True, env=env)
        if check and result.returncode != 0:
            raise RuntimeError(f"betactl {' '.join(arguments)} failed: {result.stderr}")
        return result

    def load_state(self):
        self.cli("approval-rule", "set", "--all")
        testers = json.loads(self.cli("testers", "--json").stdout)["testers"]
        self.tokens = [t["page"].rsplit("/t/", 1)[1] for t in testers]
        releases = json.loads(self.cli("releases", "--json").stdout)
        self.releases = [(r["id"], r["sha256"]) for r in releases if not r.get("revoked") and r["offeredTo"]["everyone"]]
        self.acknowledged["testers"].update(t["id"] for t in testers)
        self.acknowledged["releases"].update(r["id"] for r in releases)

    def probe(self, path, method="GET"):
        try:
            request = urllib.request.Request(self.base + path, method=method)
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            return None

    # -- actions --------------------------------------------------------------------------------

    def http(self, action, path, headers=None, expect=(200,), body=None, method="GET"):
        started = time.time()
        try:
            request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
            with urllib.request.urlopen(request, timeout=30) as response:
                data = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        except (OSError, http.client.HTTPException) as error:
            # A response cut short by the kill (IncompleteRead) is a failed request like a reset.
            ended = time.time()
            if self.server.in_window(started, ended):
                self.stats.record(action, "restart", started, ended)
            else:
                self.stats.record(action, "error", started, ended)
                self.stats.fail(action, f"{path}: {error}", started, ended)
            return None, None
        ended = time.time()
        if status in expect:
            self.stats.record(action, "ok", started, ended)
        elif status >= 500 and self.server.in_window(started, ended):
            self.stats.record(action, "restart", started, ended)
        else:
            self.stats.record(action, f"status {status}", started, ended)
            self.stats.fail(action, f"{path}: status {status}", started, ended)
        return status, data

    def page(self):
        token = self.random.choice(self.tokens)
        self.http("page", f"/t/{token}", {"User-Agent": IPHONE})

    def manifest(self):
        token = self.random.choice(self.tokens)
        release, _ = self.random.choice(self.releases)
        self.http("manifest", f"/t/{token}/releases/{release}/manifest.plist", {"User-Agent": INSTALLER})

    def download(self):
        token = self.random.choice(self.tokens)
        release, sha = self.random.choice(self.releases)
        path = f"/t/{token}/releases/{release}/app.ipa"
        if self.random.random() < 0.5:
            status, data = self.http("download", path, {"User-Agent": INSTALLER})
            if status == 200 and hashlib.sha256(data).hexdigest() != sha:
                self.stats.fail("download", f"{path}: the bytes' SHA-256 is not the release's", 0, 0)
        else:
            start = self.random.randrange(0, 4096)
            self.http("download-range", path, {"User-Agent": INSTALLER, "Range": f"bytes={start}-{start + 999}"}, expect=(206,))

    FAMILIES = ["iphone", "ipad", "tv", "watch", "vision"]

    def cli_write(self):
        # Another process writing now and then, as people running the CLI on the server do.
        time.sleep(self.random.uniform(0.1, 0.6))
        started = time.time()
        with self.cli_lock:
            self.device_counter += 1
            number = self.device_counter
        if self.random.random() < 0.5:
            result = self.cli("add-tester", f"Soak Tester {number}", "--json", check=False)
            if result.returncode == 0:
                with self.ack_lock:
                    self.acknowledged["testers"].add(json.loads(result.stdout)["id"])
        else:
            udid = "00008030-%016X" % (0x50AC0000 + number)
            family = self.FAMILIES[number % len(self.FAMILIES)]
            result = self.cli("add-device", "1", udid, "--family", family, "--name", f"Soak {number}", check=False)
            if result.returncode == 0:
                with self.ack_lock:
                    self.acknowledged["devices"].add(udid)
            elif "slots of this membership year are used" in result.stderr:
                # Apple's limit, refused as it must be: not a failure.
                self.stats.record("cli-write", "refused: family full", started, time.time())
                return
        ended = time.time()
        if result.returncode == 0:
            self.stats.record("cli-write", "ok", started, ended)
        else:
            self.stats.record("cli-write", f"exit {result.returncode}", started, ended)
            self.stats.fail("cli-write", result.stderr.strip()[:200], started, ended)

    def garbage(self):
        started = time.time()
        payloads = [bytes(self.random.getrandbits(8) for _ in range(self.random.randrange(1, 2048))),
                    b"GET /t/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
                    b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
                    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64)]
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=10) as connection:
                connection.sendall(self.random.choice(payloads))
                connection.settimeout(10)
                reply = connection.recv(4096)
            outcome = "ok" if reply == b"" or reply.startswith(b"HTTP/1.1 4") or reply.startswith(b"HTTP/1.1 2") else "odd reply"
            if reply.startswith(b"HTTP/1.1 5") and not self.server.in_window(started, time.time()):
                outcome = "5xx"
                self.stats.fail("garbage", reply.split(b"\r\n", 1)[0].decode(errors="replace"), started, time.time())
            self.stats.record("garbage", outcome, started, time.time())
        except OSError:
            self.stats.record("garbage", "closed", started, time.time())

    def slowloris(self):
        connections = []
        deadline = time.time() + self.random.uniform(5, 15)
        try:
            for _ in range(20):
                connection = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: soak\r\n")
                connections.append(connection)
            line = 0
            while time.time() < deadline and time.time() < self.stop_at:
                time.sleep(1)
                line += 1
                for connection in connections:
                    connection.sendall(b"X-Slow-%d: v\r\n" % line)
            self.stats.record("slowloris", "held", deadline, time.time())
        except OSError:
            self.stats.record("slowloris", "cut off", time.time(), time.time())
        finally:
            for connection in connections:
                connection.close()


    # -- enrolment, crash reports, API uploads ----------------------------------------------------

    def make_signer(self):
        """A throwaway certificate and key, as a device's own identity for signing its reply."""
        directory = tempfile.mkdtemp(prefix="soak-device-")
        certificate, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                        "-days", "2", "-subj", "/CN=Soak Device"], check=True, capture_output=True)
        self.signer = (directory, certificate, key)

    def signed_reply(self, udid, challenge, number):
        reply = plistlib.dumps({"UDID": udid, "CHALLENGE": challenge, "PRODUCT": "iPad13,1", "VERSION": "21B74",
                                "DEVICE_NAME": f"Soak iPad {number}", "SERIAL": "F2LXK0SOAK%02d" % (number % 100)})
        directory, certificate, key = self.signer
        result = subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-signer", certificate,
                                 "-inkey", key], input=reply, capture_output=True, check=True)
        return result.stdout

    def enroll(self):
        """A device enrolling: the Profile Service profile, then its signed reply, answered 301 to a
        result page whose outcome says whether the device was registered."""
        token = self.random.choice(self.tokens)
        status, profile = self.http("enroll", f"/t/{token}/enroll.mobileconfig", {"User-Agent": IPHONE})
        if status != 200:
            return
        try:
            payload = plistlib.loads(profile)
            challenge = payload["PayloadContent"]["Challenge"]
        except Exception as error:  # a signed profile would need openssl; this home has no signing identity
            self.stats.fail("enroll", f"the profile is not a readable plist: {error}", 0, 0)
            return
        with self.cli_lock:
            self.device_counter += 1
            number = self.device_counter
        udid = "00008103-%016X" % (0xE0000000 + number)
        body = self.signed_reply(udid, challenge, number)
        started = time.time()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            connection.request("POST", f"/t/{token}/enroll", body=body, headers={"Content-Type": "application/pkcs7-signature",
                                                                                   "User-Agent": "Profile/1.0"})
            response = connection.getresponse()
            response.read()
            location = response.getheader("Location") or ""
            connection.close()
        except (OSError, http.client.HTTPException) as error:
            ended = time.time()
            self.stats.record("enroll-reply", "restart" if self.server.in_window(started, ended) else "error", started, ended)
            if not self.server.in_window(started, ended):
                self.stats.fail("enroll-reply", str(error), started, ended)
            return
        if response.status != 301:
            self.stats.record("enroll-reply", f"status {response.status}", started, time.time())
            if not (response.status >= 500 and self.server.in_window(started, time.time())):
                self.stats.fail("enroll-reply", f"status {response.status}", started, time.time())
            return
        # The outcome is on the result page; a 301 means the reply was handled (registered or refused).
        path = urllib.parse.urlsplit(location).path
        result_status, page = self.http("enroll-result", path, {"User-Agent": IPHONE})
        if result_status != 200:
            return
        outcome = page.decode(errors="replace").split("outcome-", 1)[-1].split('"', 1)[0].split(" ", 1)[0]
        if outcome == "registered":
            with self.ack_lock:
                self.acknowledged["devices"].add(udid)
        self.stats.record("enroll-reply", "ok" if outcome == "registered" else f"outcome {outcome}", started, time.time())

    def crash_body(self):
        """A crash report: a fixture with a fresh incident identifier, or one already acknowledged
        (sent again, as SDKs do when they did not see the answer)."""
        with self.ack_lock:
            if self.sent_crashes and self.random.random() < 0.3:
                return self.random.choice(self.sent_crashes), True
        name = self.random.choice(self.crash_fixtures)
        text = open(name, encoding="utf-8").read()
        fresh = str(uuid.UUID(int=self.random.getrandbits(128))).upper()
        # A new incident identifier makes a new report (reports are kept by their bytes).
        text = re.sub(r'("incident(?:_id)?"\s*:\s*")[^"]+(")', lambda m: m.group(1) + fresh + m.group(2), text)
        text = re.sub(r"(Incident Identifier:\s*)\S+", lambda m: m.group(1) + fresh, text)
        return text.encode(), False

    def crash(self):
        if self.random.random() < 0.1:
            # Not a report: refused with 422 and nothing stored.
            # Binary from its first byte: a body that opens like JSON or text is taken as a report
            # and kept as unreadable, by design (the raw report is never thrown away).
            body = b"\x00" + bytes(self.random.getrandbits(8) for _ in range(self.random.randrange(0, 4096)))
            self.http("crash-refused", "/api/v1/crashes?key=" + urllib.parse.quote(self.crash_key),
                      {"Content-Type": "application/octet-stream"}, expect=(422,), body=body, method="POST")
            return
        body, duplicate = self.crash_body()
        status, data = self.http("crash-dup" if duplicate else "crash", "/api/v1/crashes?key=" + urllib.parse.quote(self.crash_key),
                                 {"Content-Type": "application/octet-stream"}, expect=(202,), body=body, method="POST")
        if status == 202:
            receipt = json.loads(data)
            if duplicate and not receipt.get("duplicate"):
                self.stats.fail("crash-dup", f"a report sent again was not recognised as a duplicate: {receipt}", 0, 0)
            with self.ack_lock:
                self.acknowledged["crashes"].add(receipt["id"])
                if not duplicate:
                    self.sent_crashes.append(body)

    def multipart(self, fields, files):
        boundary = "soak" + uuid.uuid4().hex
        chunks = []
        for name, value in fields:
            chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for name, path in files:
            with open(path, "rb") as handle:
                data = handle.read()
            chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{os.path.basename(path)}"\r\n'
                          f'Content-Type: application/octet-stream\r\n\r\n'.encode() + data + b"\r\n")
        chunks.append(f"--{boundary}--\r\n".encode())
        return b"".join(chunks), f"multipart/form-data; boundary={boundary}"

    def api_release(self):
        """A CI upload through the API: the ipa and its dSYMs, released again each time."""
        time.sleep(self.random.uniform(0.5, 2))
        app = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Fixtures", "formats", "app")
        # Offered to a group no tester is in, so tester pages keep their size across the run (the
        # memory check compares server processes that served the same pages).
        body, content_type = self.multipart([("notes", "Soak upload"), ("again", "true"), ("group", "soak-ci")],
                                            [("ipa", os.path.join(app, "Beta.ipa")), ("dsym", os.path.join(app, "Beta.app.dSYM.zip")),
                                             ("dsym", os.path.join(app, "BetaWidget.appex.dSYM.zip"))])
        status, data = self.http("api-release", "/api/v1/releases", {"Authorization": f"Bearer {self.api_token}",
                                                                     "Content-Type": content_type},
                                 expect=(201,), body=body, method="POST")
        if status == 201:
            release = json.loads(data)["release"]
            with self.ack_lock:
                self.acknowledged["releases"].add(release["id"])

    # -- running --------------------------------------------------------------------------------

    def worker(self, actions):
        names = [name for name, _ in actions]
        weights = [weight for _, weight in actions]
        while time.time() < self.stop_at:
            getattr(self, self.random.choices(names, weights)[0].replace("-", "_"))()

    def chaos(self):
        while True:
            pause = self.random.uniform(5, 20)
            if time.time() + pause >= self.stop_at - 3:
                return
            time.sleep(pause)
            self.server.kill_and_restart()

    def sampler(self):
        while time.time() < self.stop_at:
            self.server.sample_rss()
            time.sleep(1)

    def run(self):
        self.load_state()
        self.server.start()
        actions = [("page", 40), ("manifest", 15), ("download", 15), ("garbage", 5)]
        if self.probe(f"/t/{self.tokens[0]}/enroll.mobileconfig") not in (None, 404):
            self.make_signer()
            actions.append(("enroll", 4))
        else:
            self.stats.skipped.add("enroll")
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Fixtures", "symbols", "crashes")
        self.crash_fixtures = [os.path.join(fixtures, name) for name in sorted(os.listdir(fixtures))
                               if name.endswith((".ips", ".crash"))] if os.path.isdir(fixtures) else []
        if self.crash_key and self.crash_fixtures and self.probe("/api/v1/crashes?key=" + self.crash_key, "POST") not in (None, 404):
            actions.append(("crash", 8))
        else:
            self.stats.skipped.add("crash")
        if self.api_token:
            actions.append(("api-release", 1))
        else:
            self.stats.skipped.add("api-release")
        threads = [threading.Thread(target=self.worker, args=(actions,)) for _ in range(8)]
        threads += [threading.Thread(target=self.worker, args=([("cli-write", 1)],)) for _ in range(2)]
        threads += [threading.Thread(target=self.worker, args=([("slowloris", 1)],))]
        threads += [threading.Thread(target=self.chaos), threading.Thread(target=self.sampler)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.server.stop()
        return self.check()

    def check(self):
        problems = []
        testers = {t["id"] for t in json.loads(self.cli("testers", "--json").stdout)["testers"]}
        devices = {d["udid"] for d in json.loads(self.cli("devices", "--json").stdout)["devices"]}
        releases = {r["id"] for r in json.loads(self.cli("releases", "--json").stdout)}
        checks = [("testers", testers), ("devices", devices), ("releases", releases)]
        if "crash" not in self.stats.skipped:
            listed = json.loads(self.cli("crashes", "--json").stdout)
            reports = listed["reports"] if isinstance(listed, dict) else listed
            checks.append(("crashes", {r["id"] for r in reports}))
        for name, present in checks:
            lost = self.acknowledged[name] - present
            if lost:
                problems.append(f"{len(lost)} acknowledged {name} are missing: {sorted(lost)[:5]}")
        verify = self.cli("verify", check=False)
        if verify.returncode != 0:
            problems.append(f"betactl verify failed: {verify.stdout.strip()[-400:]} {verify.stderr.strip()[-400:]}")
        outside = [f for f in self.stats.failures]
        if outside:
            problems.append(f"{len(outside)} failures outside restart windows, e.g. {outside[:3]}")
        growth = self.rss_growth()
        if growth is not None and growth > 1.5:
            problems.append(f"resident memory grew: the last server process peaked at {growth:.2f}x the first one's peak")
        self.report(problems, growth)
        return problems

    def rss_growth(self):
        """The peak RSS of the last server process over the first one's (every process served the same
        mix; a leak shows as peaks that climb), with 16 MB of slack for caches warming up."""
        lives = [life for life in self.server.lives + [self.server.current_life] if life > 0]
        if len(lives) < 2:
            return None
        return max(1.0, (lives[-1] - 16 * 1024) / max(1, lives[0]))

    def report(self, problems, growth):
        print(f"# Soak ({time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}, {self.duration:.0f} s, "
              f"{len(self.server.windows)} SIGKILL restarts)")
        print()
        print("| action | requests | ok | other outcomes | p50 ms | p99 ms |")
        print("|---|---|---|---|---|---|")
        for action in sorted(self.stats.counts):
            outcomes = self.stats.counts[action]
            latencies = sorted(self.stats.latencies.get(action, []))
            p = (lambda q: f"{latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000:.1f}" if latencies else "-")
            others = ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()) if k != "ok") or "-"
            print(f"| {action} | {sum(outcomes.values())} | {outcomes.get('ok', 0)} | {others} | {p(0.5)} | {p(0.99)} |")
        if self.stats.skipped:
            print()
            print("Not offered by this server yet, so not exercised: " + ", ".join(sorted(self.stats.skipped)) + ".")
        print()
        acknowledged = ", ".join(f"{len(v)} {k}" for k, v in self.acknowledged.items())
        print(f"Acknowledged and found again at the end: {acknowledged}.")
        lives = [life // 1024 for life in self.server.lives + [self.server.current_life] if life > 0]
        if lives:
            print(f"Peak resident memory of each server process, in MB: {', '.join(map(str, lives))}.")
        print()
        print("Result: " + ("PASS" if not problems else "FAIL\n" + "\n".join(f"- {p}" for p in problems)))


def main():
    betactl, home, duration = sys.argv[1], sys.argv[2], float(sys.argv[3])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else int(time.time())
    problems = Soak(betactl, home, duration, seed).run()
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
