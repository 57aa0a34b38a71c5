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
"""
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
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()
