#!/usr/bin/env python3
"""A test App Store Connect API server: no test may reach Apple, so the tests reach this instead.

Every request it receives and every response it answers is checked against Apple's published
OpenAPI document with openapi-core; a breach is recorded (and the request refused with 400), and
the test fails on any. Tokens are verified with the key's public half (ES256, raw r||s, kid, iss,
aud, exp at most 20 minutes after iat). It serves TLS with a CA it makes itself, and models what the
document does not say (see ../shared/asc/README.md): paging with links.next, 409 for a duplicate
UDID (compared case-insensitively), 403 at 100 devices per class in the membership year, 429 with
Retry-After on the Nth call, profiles that can only be deleted and created, and profileContent as
a real CMS-signed .mobileprovision made with `openssl cms -sign`.

Usage: asc_server.py --openapi DOC.json --state DIR --scenario SCENARIO.json
DIR receives ca.pem (trust it), calls.jsonl (one line per call: method, path, status, problems),
and is where the certificates are made. Their RSA keys are the cached test keys of
Tests/TestSupport/TestKeys.swift, one per role, in $BETACTL_TEST_KEYS, else in .build/test-keys
beside Package.swift. The first line on stdout is "listening on https://127.0.0.1:PORT".
SCENARIO.json (all optional):
  {"key_id": "ABC123DEFG", "issuer_id": "UUID", "public_key": "PEM of the API key's public half",
   "devices": [{"udid":..., "name":..., "deviceClass": "IPHONE", "status": "ENABLED", "addedDate": ...}],
   "generate_devices": 450, "classes": {"UDID": "IPAD"}, "bundle_ids": ["com.example.app", ...],
   "certificates": 1, "profiles": [{"name":..., "bundle_id":...}], "rate_limit_on_call": N,
   "unavailable_on_call": N, "forbidden": false, "fail_profile_create": false, "team_id": "TEAMID1234",
   "entitlements": {"aps-environment": "production"}, "latency_ms": 300, "hold": [{"method": "POST", "path": "/v1/profiles"}]}
"latency_ms" delays every answer (realistic latency, for benchmarks). "hold" lists calls to hold
once each: the first call matching a rule's method and path (a prefix) is carried out, then its
answer is held back: DIR/held gets a line "METHOD PATH" and the answer waits until DIR/release
exists, so a test can kill the client exactly after Apple acted but before it heard back.
"""
import argparse, base64, datetime, json, os, plistlib, shutil, ssl, subprocess, sys, tempfile, threading, time, urllib.parse, uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse
from werkzeug.datastructures import ImmutableMultiDict

APPLE = "https://api.appstoreconnect.apple.com"


def run(*command, data=None):
    return subprocess.run(command, input=data, check=True, capture_output=True).stdout


TEST_KEYS = os.environ.get("BETACTL_TEST_KEYS") or os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "test-keys"))


def test_key(role, bits=2048):
    """The cached throwaway RSA key of `role`, as Tests/TestSupport/TestKeys.swift makes it (same folder,
    same names): generated under a unique temporary name and published with a hard link, so the first
    creator wins and a published key is never replaced."""
    path = os.path.join(TEST_KEYS, "rsa%d-%s.pem" % (bits, role))
    if os.path.exists(path):
        return path
    os.makedirs(TEST_KEYS, exist_ok=True)
    temporary = os.path.join(TEST_KEYS, ".tmp-%d-%s.pem" % (os.getpid(), uuid.uuid4()))
    try:
        run("openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:%d" % bits, "-out", temporary)
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return path


def copy_test_key(role, destination):
    """The cached key of `role` copied to `destination` (where the tests read it)."""
    shutil.copyfile(test_key(role), destination)
    return destination


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def der_integer(value):
    body = value.lstrip(b"\x00") or b"\x00"
    if body[0] & 0x80:
        body = b"\x00" + body
    return b"\x02" + bytes([len(body)]) + body


def stamp(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000+00:00")


class Apple:
    """The team's state and Apple's rules."""

    def __init__(self, scenario, state_dir):
        self.scenario = scenario
        self.dir = state_dir
        self.lock = threading.Lock()
        self.calls = 0
        self.held = set()
        self.team = scenario.get("team_id", "TEAMID1234")
        self.devices = {}
        now = datetime.datetime.now(datetime.timezone.utc)
        for index in range(scenario.get("generate_devices", 0)):
            classes = ["IPHONE", "IPAD", "APPLE_WATCH", "APPLE_TV", "MAC"]  # 90 of each for 450: under the limit
            self.add_device("%08X-%016X" % (0x00008110, index + 1), "Generated %d" % index, classes[index % 5],
                            "DISABLED" if index % 50 == 45 else "ENABLED", now - datetime.timedelta(days=index % 300))
        for device in scenario.get("devices", []):
            added = datetime.datetime.fromisoformat(device["addedDate"]) if device.get("addedDate") else now
            self.add_device(device["udid"], device.get("name", "Device"), device.get("deviceClass", "IPHONE"),
                            device.get("status", "ENABLED"), added)
        self.bundle_ids = {}
        for index, identifier in enumerate(scenario.get("bundle_ids", [])):
            self.bundle_ids["B%04d" % index] = identifier
        self.make_identities()
        self.certificates = {}
        for index in range(scenario.get("certificates", 1)):
            self.certificates["C%04d" % index] = self.distribution_serials[index]
        self.profiles = {}
        for profile in scenario.get("profiles", []):
            bundle = next(key for key, value in self.bundle_ids.items() if value == profile["bundle_id"])
            self.profiles[uuid.uuid4().hex[:10].upper()] = {"name": profile["name"], "bundle": bundle, "devices": [],
                                                          "certificates": [], "uuid": str(uuid.uuid4()).upper(), "content": ""}

    def add_device(self, udid, name, device_class, status, added):
        identifier = uuid.uuid4().hex[:10].upper()
        self.devices[identifier] = {"udid": udid, "name": name, "deviceClass": device_class, "status": status,
                                    "platform": "MAC_OS" if device_class == "MAC" else "IOS", "model": None,
                                    "addedDate": stamp(added), "added": added}
        return identifier

    def make_identities(self):
        """The distribution certificates profiles hold and the identity profiles are signed with."""
        self.distribution_serials = []
        self.distribution_der = []
        count = max(1, self.scenario.get("certificates", 1))
        for index in range(count):
            key, cert = os.path.join(self.dir, "dist%d.key" % index), os.path.join(self.dir, "dist%d.pem" % index)
            if not os.path.exists(cert):
                copy_test_key("asc-distribution-%d" % index, key)
                run("openssl", "req", "-x509", "-key", key, "-out", cert, "-days", "365",
                    "-set_serial", str(0x1A2B3C4D00 + index),
                    "-subj", "/CN=iPhone Distribution: Test Team %d (%s)/OU=%s/O=Test Team/C=US" % (index, self.team, self.team))
            self.distribution_der.append(run("openssl", "x509", "-in", cert, "-outform", "DER"))
            serial = run("openssl", "x509", "-in", cert, "-noout", "-serial").decode().strip().split("=")[1]
            self.distribution_serials.append(serial)
        self.signer_key, self.signer_cert = os.path.join(self.dir, "signer.key"), os.path.join(self.dir, "signer.pem")
        if not os.path.exists(self.signer_cert):
            copy_test_key("asc-profile-signer", self.signer_key)
            run("openssl", "req", "-x509", "-key", self.signer_key, "-out", self.signer_cert,
                "-days", "365", "-subj", "/CN=Test iPhone OS Provisioning Profile Signing/O=Test Apple/C=US")

    def slots_used(self, device_class):
        year_start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=365)
        return sum(1 for device in self.devices.values()
                   if device["deviceClass"] == device_class and (device["status"] == "ENABLED" or device["added"] >= year_start))

    def profile_content(self, name, bundle, device_ids, certificate_ids, profile_uuid):
        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        identifier = self.bundle_ids[bundle]
        plist = {
            "AppIDName": identifier, "ApplicationIdentifierPrefix": [self.team], "CreationDate": now,
            "Platform": ["iOS"], "IsXcodeManaged": False,
            "DeveloperCertificates": [self.distribution_der[self.distribution_serials.index(self.certificates[c])] for c in certificate_ids],
            "Entitlements": {"application-identifier": "%s.%s" % (self.team, identifier), "get-task-allow": False,
                             "com.apple.developer.team-identifier": self.team, "keychain-access-groups": ["%s.*" % self.team]},
            "ExpirationDate": now + datetime.timedelta(days=365), "Name": name,
            "ProvisionedDevices": [self.devices[d]["udid"] for d in device_ids],
            "TeamIdentifier": [self.team], "TeamName": "Test Team", "TimeToLive": 365, "UUID": profile_uuid, "Version": 1,
        }
        # Capabilities enabled on the App IDs: their entitlements appear in every profile.
        plist["Entitlements"].update(self.scenario.get("entitlements", {}))
        signed = run("openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-signer", self.signer_cert,
                     "-inkey", self.signer_key, data=plistlib.dumps(plist))
        return base64.b64encode(signed).decode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.handle_call("GET")

    def do_POST(self):
        self.handle_call("POST")

    def do_DELETE(self):
        self.handle_call("DELETE")

    def do_PATCH(self):
        self.handle_call("PATCH")

    def handle_call(self, method):
        server = self.server
        apple = server.apple
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parsed = urllib.parse.urlsplit(self.path)
        args = ImmutableMultiDict(urllib.parse.parse_qsl(parsed.query, keep_blank_values=True))
        problems = []
        headers = {name: value for name, value in self.headers.items()}
        request = MockRequest(APPLE, method.lower(), parsed.path, args=args, headers=headers, data=body or None,
                              content_type=self.headers.get("Content-Type") or "application/json")
        try:
            server.openapi.validate_request(request)
        except Exception as error:  # the contract is broken: the test fails on this
            problems.append("request: %s: %s" % (type(error).__name__, error))
        with apple.lock:
            apple.calls += 1
            number = apple.calls
            if problems:
                status, answer = 400, errors(400, "PARAMETER_ERROR.INVALID", "contract violation", problems[0])
            else:
                status, answer, token_problem = self.authorize(apple)
                if token_problem:
                    problems.append(token_problem)
                if status is None and apple.scenario.get("unavailable_on_call") == number:
                    status, answer = 503, errors(503, "SERVICE_UNAVAILABLE", "Service Unavailable", "The service is temporarily unavailable.")
                if status is None and apple.scenario.get("rate_limit_on_call") == number:
                    status, answer = 429, errors(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                                                 "We've received too many requests for this API. Please wait and try again or slow down your request rate.")
                if status is None:
                    status, answer = route(apple, method, parsed.path, args, body)
        payload = json.dumps(answer).encode() if answer is not None else b""
        if status not in (429, 503):  # Apple's behaviour, but not in the document
            response = MockResponse(payload, status, headers={}, content_type="application/json" if payload else None)
            try:
                server.openapi.validate_response(request, response)
            except Exception as error:
                problems.append("response %d: %s: %s" % (status, type(error).__name__, error))
        with apple.lock:
            with open(os.path.join(server.state_dir, "calls.jsonl"), "a") as log:
                log.write(json.dumps({"n": number, "method": method, "path": self.path, "status": status, "problems": problems}) + "\n")
        self.hold_if_asked(apple, method, parsed.path)
        latency = apple.scenario.get("latency_ms", 0)
        if latency:
            time.sleep(latency / 1000)
        self.send_response(status)
        self.send_header("X-Request-ID", str(uuid.uuid4()).upper())
        self.send_header("X-Rate-Limit", "user-hour-lim:3500;user-hour-rem:%d;" % max(0, 3500 - number))
        if status == 429:
            self.send_header("Retry-After", "1")
        if payload:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def hold_if_asked(self, apple, method, path):
        """Holds the answer of the first call matching each "hold" rule until DIR/release exists."""
        with apple.lock:
            rules = apple.scenario.get("hold", [])
            index = next((i for i, rule in enumerate(rules) if i not in apple.held and rule["method"] == method and path.startswith(rule["path"])), None)
            if index is None:
                return
            apple.held.add(index)
            with open(os.path.join(self.server.state_dir, "held"), "a") as marker:
                marker.write("%s %s\n" % (method, path))
        release = os.path.join(self.server.state_dir, "release")
        deadline = time.time() + 600
        while not os.path.exists(release) and time.time() < deadline:
            time.sleep(0.05)

    def authorize(self, apple):
        """(status, answer, problem): None status when the token is good; a problem when betactl made it wrong."""
        scenario = apple.scenario
        header = self.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return 401, errors(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", "no bearer token"), "no bearer token"
        try:
            encoded_header, encoded_claims, encoded_signature = header[7:].split(".")
            jose = json.loads(b64url_decode(encoded_header))
            claims = json.loads(b64url_decode(encoded_claims))
            signature = b64url_decode(encoded_signature)
        except Exception as error:
            return 401, errors(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", "malformed"), "malformed token: %s" % error
        if jose.get("kid") != scenario["key_id"]:
            return 401, errors(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                               "Provide a properly configured and signed bearer token, and make sure that it has not expired."), None
        problem = None
        now = int(datetime.datetime.now(datetime.timezone.utc).timestamp())
        if jose.get("alg") != "ES256" or jose.get("typ", "JWT") != "JWT":
            problem = "header %r is not ES256 JWT" % jose
        elif claims.get("aud") != "appstoreconnect-v1" or claims.get("iss") != scenario["issuer_id"]:
            problem = "claims %r: wrong aud or iss" % claims
        elif not isinstance(claims.get("iat"), int) or not isinstance(claims.get("exp"), int):
            problem = "iat/exp are not integers"
        elif claims["exp"] - claims["iat"] > 1200 or claims["exp"] <= now or claims["iat"] > now + 60:
            problem = "exp %d is not within 20 minutes of iat %d (now %d)" % (claims["exp"], claims["iat"], now)
        elif len(signature) != 64:
            problem = "signature is %d bytes, not the raw 64-byte r||s" % len(signature)
        elif not self.server.verify(encoded_header + "." + encoded_claims, signature):
            problem = "signature does not verify with the key's public half"
        if problem:
            return 401, errors(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", problem), problem
        if scenario.get("forbidden"):
            return 403, errors(403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                               "The API key in use does not allow this request"), None
        return None, None, None


def errors(status, code, title, detail):
    return {"errors": [{"id": str(uuid.uuid4()), "status": str(status), "code": code, "title": title, "detail": detail}]}


def device_json(identifier, device):
    attributes = {key: device[key] for key in ("udid", "name", "deviceClass", "status", "platform", "addedDate")}
    if device.get("model"):
        attributes["model"] = device["model"]
    return {"type": "devices", "id": identifier, "attributes": attributes, "links": {"self": APPLE + "/v1/devices/" + identifier}}


def route(apple, method, path, args, body):
    base = apple.base_url
    if method == "GET" and path == "/v1/devices":
        limit = int(args.get("limit", "20"))
        start = int(args.get("cursor", "0"))
        ordered = sorted(apple.devices.items())
        wanted = [w.lower() for w in args.get("filter[udid]", "").split(",") if w]
        if wanted:
            ordered = [(i, d) for i, d in ordered if d["udid"].lower() in wanted]
        page = ordered[start:start + limit]
        links = {"self": base + "/v1/devices?limit=%d" % limit}
        if start + limit < len(ordered):
            links["next"] = base + "/v1/devices?cursor=%d&limit=%d" % (start + limit, limit)
        return 200, {"data": [device_json(i, d) for i, d in page], "links": links,
                     "meta": {"paging": {"total": len(ordered), "limit": limit}}}
    if method == "POST" and path == "/v1/devices":
        attributes = json.loads(body)["data"]["attributes"]
        udid = attributes["udid"]
        if any(d["udid"].lower() == udid.lower() for d in apple.devices.values()):
            return 409, errors(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.",
                               "A device with number '%s' already exists on this team." % udid)
        device_class = apple.scenario.get("classes", {}).get(udid.upper(), "IPHONE")
        if apple.slots_used(device_class) >= 100:
            names = {"IPHONE": "iPhone", "IPAD": "iPad", "APPLE_WATCH": "Apple Watch"}
            return 403, errors(403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                               "Your development team has reached the maximum number of registered %s devices." % names.get(device_class, device_class))
        identifier = apple.add_device(udid, attributes["name"], device_class, "ENABLED", datetime.datetime.now(datetime.timezone.utc))
        return 201, {"data": device_json(identifier, apple.devices[identifier]), "links": {"self": base + "/v1/devices/" + identifier}}
    if method == "GET" and path == "/v1/bundleIds":
        wanted = [w for w in args.get("filter[identifier]", "").split(",") if w]
        # Apple's filter is not an exact match: it returns every identifier containing the value.
        found = [(i, v) for i, v in sorted(apple.bundle_ids.items()) if not wanted or any(w in v for w in wanted)]
        found = found[:int(args.get("limit", "20"))]
        include = "profiles" in args.get("include", "").split(",")
        data, included = [], []
        for identifier, value in found:
            resource = {"type": "bundleIds", "id": identifier, "links": {"self": base + "/v1/bundleIds/" + identifier},
                        "attributes": {"identifier": value, "name": value.replace(".", " "), "platform": "IOS", "seedId": apple.team}}
            if include:
                mine = [p for p, profile in apple.profiles.items() if profile["bundle"] == identifier]
                resource["relationships"] = {"profiles": {"data": [{"type": "profiles", "id": p} for p in mine]}}
                included += [profile_json(apple, p, with_content=False) for p in mine]
            data.append(resource)
        answer = {"data": data, "links": {"self": base + "/v1/bundleIds"}, "meta": {"paging": {"total": len(data), "limit": 200}}}
        if include:
            answer["included"] = included
        return 200, answer
    if method == "GET" and path == "/v1/certificates":
        types = args.get("filter[certificateType]", "").split(",")
        data = []
        if not types[0] or "DISTRIBUTION" in types or "IOS_DISTRIBUTION" in types:
            for identifier, serial in sorted(apple.certificates.items()):
                data.append({"type": "certificates", "id": identifier, "links": {"self": base + "/v1/certificates/" + identifier},
                             "attributes": {"name": "Apple Distribution: Test Team", "certificateType": "DISTRIBUTION",
                                            "displayName": "Test Team", "serialNumber": serial, "platform": "IOS",
                                            "expirationDate": "2027-11-27T00:00:00.000+00:00"}})
        return 200, {"data": data, "links": {"self": base + "/v1/certificates"}, "meta": {"paging": {"total": len(data), "limit": 200}}}
    if method == "GET" and path.startswith("/v1/profiles/"):
        identifier = path.rsplit("/", 1)[1]
        if identifier not in apple.profiles:
            return 404, errors(404, "NOT_FOUND", "The specified resource does not exist", "There is no resource of type 'profiles' with id '%s'" % identifier)
        return 200, {"data": profile_json(apple, identifier, with_content=True), "links": {"self": base + "/v1/profiles/" + identifier}}
    if method == "DELETE" and path.startswith("/v1/profiles/"):
        identifier = path.rsplit("/", 1)[1]
        if apple.profiles.pop(identifier, None) is None:
            return 404, errors(404, "NOT_FOUND", "The specified resource does not exist", "There is no resource of type 'profiles' with id '%s'" % identifier)
        return 204, None
    if method == "POST" and path == "/v1/profiles":
        data = json.loads(body)["data"]
        relationships = data["relationships"]
        bundle = relationships["bundleId"]["data"]["id"]
        devices = [d["id"] for d in relationships.get("devices", {}).get("data", [])]
        certificates = [c["id"] for c in relationships["certificates"]["data"]]
        name = data["attributes"]["name"]
        if apple.scenario.get("fail_profile_create"):
            return 409, errors(409, "ENTITY_ERROR", "There is a problem with the request entity",
                               "There are no current certificates on this team matching the provided certificate IDs.")
        if bundle not in apple.bundle_ids or any(d not in apple.devices for d in devices) or any(c not in apple.certificates for c in certificates):
            return 409, errors(409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "An attribute value is invalid.", "A relationship refers to an unknown resource.")
        if any(p["name"] == name for p in apple.profiles.values()):
            return 409, errors(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", "Multiple profiles found with the name '%s'." % name)
        identifier = uuid.uuid4().hex[:10].upper()
        profile_uuid = str(uuid.uuid4()).upper()
        apple.profiles[identifier] = {"name": name, "bundle": bundle, "devices": devices, "certificates": certificates, "uuid": profile_uuid,
                                      "content": apple.profile_content(name, bundle, devices, certificates, profile_uuid)}
        return 201, {"data": profile_json(apple, identifier, with_content=True), "links": {"self": base + "/v1/profiles/" + identifier}}
    return 404, errors(404, "NOT_FOUND", "The specified resource does not exist", "The path provided does not match a defined resource type.")


def profile_json(apple, identifier, with_content):
    profile = apple.profiles[identifier]
    attributes = {"name": profile["name"], "platform": "IOS", "profileType": "IOS_APP_ADHOC", "profileState": "ACTIVE",
                  "uuid": profile["uuid"], "createdDate": "2026-11-27T00:00:00.000+00:00", "expirationDate": "2027-11-27T00:00:00.000+00:00"}
    if with_content:
        attributes["profileContent"] = profile["content"]
    return {"type": "profiles", "id": identifier, "attributes": attributes, "links": {"self": APPLE + "/v1/profiles/" + identifier}}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def verify(self, signing_input, signature):
        if (signing_input, signature) in self.verified:
            return True
        der = b"\x30" + bytes([0]) + der_integer(signature[:32]) + der_integer(signature[32:])
        der = b"\x30" + bytes([len(der) - 2]) + der[2:]
        with tempfile.NamedTemporaryFile(dir=self.state_dir, delete=False) as file:
            file.write(der)
        try:
            result = subprocess.run(["openssl", "dgst", "-sha256", "-verify", self.public_key, "-signature", file.name],
                                    input=signing_input.encode(), capture_output=True)
        finally:
            os.unlink(file.name)
        if result.returncode == 0:
            self.verified.add((signing_input, signature))
        return result.returncode == 0


def make_tls(state_dir):
    ca_key, ca, key, csr, cert = (os.path.join(state_dir, name) for name in ("ca.key", "ca.pem", "server.key", "server.csr", "server.pem"))
    if os.path.exists(cert):
        return cert, key
    copy_test_key("asc-tls-ca", ca_key)
    copy_test_key("asc-tls-server", key)
    run("openssl", "req", "-x509", "-key", ca_key, "-out", ca, "-days", "30",
        "-subj", "/CN=betactl test App Store Connect CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    run("openssl", "req", "-new", "-key", key, "-out", csr, "-subj", "/CN=127.0.0.1")
    extensions = os.path.join(state_dir, "server.ext")
    with open(extensions, "w") as file:
        file.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    run("openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "30", "-extfile", extensions)
    return cert, key


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--openapi", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--scenario", required=True)
    options = parser.parse_args()
    with open(options.scenario) as file:
        scenario = json.load(file)
    with open(options.openapi) as file:
        document = json.load(file)
    public_key = os.path.join(options.state, "api-key-public.pem")
    with open(public_key, "w") as file:
        file.write(scenario["public_key"])
    cert, key = make_tls(options.state)
    server = Server(("127.0.0.1", 0), Handler)
    server.state_dir = options.state
    server.public_key = public_key
    server.verified = set()
    server.openapi = OpenAPI.from_dict(document, config=Config(spec_validator_cls=None))
    server.apple = Apple(scenario, options.state)
    server.apple.base_url = "https://127.0.0.1:%d" % server.server_address[1]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print("listening on https://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
