#!/usr/bin/env python3
"""Does what an iPhone does during enrolment, with Python's standard library as an independent
client, and prints JSON.

Usage:
  enroll_device.py read-profile FILE
      Reads a served .mobileconfig (an unsigned XML plist) with plistlib and prints every key with
      its value and plist type.
  enroll_device.py post URL FILE
      POSTs FILE (a signed reply) as iOS does (Content-Type application/pkcs7-signature) without
      following redirects, and prints the status and Location.
  enroll_device.py forge BASE TOKEN COUNT CERT KEY DIR
      The attack of issue 17: COUNT times, downloads the enrolment profile from the tester link
      BASE/t/TOKEN as Safari does, signs a reply for a made-up UDID carrying its challenge with
      the self-made CERT and KEY (openssl cms, files in DIR), posts it and opens the result page.
      Prints how many replies led to each outcome, the outcome of each in order, the seconds it
      took, and the text of the first page of each outcome.
  enroll_device.py garbage URL COUNT
      POSTs COUNT bodies that are no reply at all to URL, opens each result page, and prints the
      outcome of each in order.
"""
import os
import re
import subprocess
import time
import json
import plistlib
import sys
import urllib.error
import urllib.request


def typed(value):
    """A plist value as JSON, with its plist type beside it."""
    if isinstance(value, dict):
        return {"type": "dict", "value": {key: typed(item) for key, item in value.items()}}
    if isinstance(value, list):
        return {"type": "array", "value": [typed(item) for item in value]}
    if isinstance(value, bool):
        return {"type": "bool", "value": value}
    if isinstance(value, int):
        return {"type": "integer", "value": value}
    if isinstance(value, bytes):
        return {"type": "data", "value": value.hex()}
    return {"type": "string", "value": str(value)}


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def post(url, body):
    """POSTs a reply as iOS does; returns the status and Location without following it."""
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/pkcs7-signature", "User-Agent": "Profile/1.0"})
    opener = urllib.request.build_opener(NoRedirects())
    try:
        response = opener.open(request, timeout=60)
        return response.status, response.headers.get("Location")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location")


IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"


def outcome_of(location):
    """Opens a result page; returns its outcome class and text."""
    request = urllib.request.Request(location, headers={"User-Agent": IPHONE})
    with urllib.request.urlopen(request, timeout=60) as response:
        page = response.read().decode("utf-8")
    found = re.search(r"outcome-([a-z-]+)", page)
    return (found.group(1) if found else "none"), page


def reply_plist(udid, challenge):
    return plistlib.dumps({"UDID": udid, "PRODUCT": "iPhone15,2", "VERSION": "21A329", "SERIAL": "F2LXK0ABCD12",
                           "DEVICE_NAME": "Forged " + udid[-4:], "IMEI": "35 123456 789012 3", "CHALLENGE": challenge},
                          fmt=plistlib.FMT_XML)


def forge(base, token, count, certificate, key, directory):
    counts, order, pages = {}, [], {}
    started = time.monotonic()
    for index in range(count):
        request = urllib.request.Request(f"{base}/t/{token}/enroll.mobileconfig", headers={"User-Agent": IPHONE})
        with urllib.request.urlopen(request, timeout=60) as response:
            profile = plistlib.loads(response.read(), fmt=plistlib.FMT_XML)
        challenge = profile["PayloadContent"]["Challenge"]
        udid = "00008120-%016X" % (0xF0000 + index)
        content = os.path.join(directory, "forged.plist")
        with open(content, "wb") as handle:
            handle.write(reply_plist(udid, challenge))
        signed = subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", content,
                                 "-signer", certificate, "-inkey", key], check=True, capture_output=True).stdout
        status, location = post(f"{base}/t/{token}/enroll", signed)
        if status != 301 or not location:
            order.append(f"status-{status}")
            continue
        outcome, page = outcome_of(location)
        counts[outcome] = counts.get(outcome, 0) + 1
        order.append(outcome)
        pages.setdefault(outcome, page)
    return {"outcomes": counts, "order": order, "seconds": time.monotonic() - started, "pages": pages}


def main():
    command = sys.argv[1]
    if command == "read-profile":
        with open(sys.argv[2], "rb") as handle:
            profile = plistlib.load(handle, fmt=plistlib.FMT_XML)
        print(json.dumps(typed(profile)["value"]))
    elif command == "post":
        with open(sys.argv[3], "rb") as handle:
            body = handle.read()
        request = urllib.request.Request(sys.argv[2], data=body, method="POST",
                                         headers={"Content-Type": "application/pkcs7-signature",
                                                  "User-Agent": "Profile/1.0"})
        opener = urllib.request.build_opener(NoRedirects())
        try:
            response = opener.open(request, timeout=60)
            status, location = response.status, response.headers.get("Location")
        except urllib.error.HTTPError as error:
            status, location = error.code, error.headers.get("Location")
        print(json.dumps({"status": status, "location": location}))
    elif command == "forge":
        base, token, count, certificate, key, directory = sys.argv[2:8]
        print(json.dumps(forge(base, token, int(count), certificate, key, directory)))
    elif command == "garbage":
        order, pages = [], {}
        for index in range(int(sys.argv[3])):
            status, location = post(sys.argv[2], b"not a reply %d" % index)
            outcome, page = outcome_of(location) if status == 301 and location else (f"status-{status}", "")
            order.append(outcome)
            pages.setdefault(outcome, page)
        print(json.dumps({"order": order, "pages": pages}))
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()
