#!/usr/bin/env python3
"""Does with Python's urllib what iOS does to install an ad hoc build from a tester's page.

1. fetch the tester page (with the User-Agent given, an iPhone's by default);
2. find the Install link and parse its itms-services URL;
3. fetch the manifest it names and read it with plistlib;
4. download the package the manifest names, once whole and once in Range pieces.

Prints one JSON object describing what it saw; the Swift test asserts on it.
Usage: ios_install.py PAGE_URL [RELEASE_ID] [USER_AGENT]
"""
import hashlib
import html.parser
import json
import plistlib
import ssl
import sys
import urllib.parse
import urllib.request

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1")
INSTALLER = "com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 hwmodel/D73AP build/21B74 (6; dt:281)"


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.installs = []
        self.all = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "src"):
            if attrs.get(name):
                self.all.append(attrs[name])
        if tag == "a" and "install" in (attrs.get("class") or "").split():
            self.installs.append(attrs.get("href"))


def fetch(url, agent, headers=None):
    request = urllib.request.Request(url, headers={"User-Agent": agent, **(headers or {})})
    context = ssl._create_unverified_context()  # the tests' TLS proxy uses a self-signed certificate
    with urllib.request.urlopen(request, timeout=30, context=context) as response:
        return response.status, dict(response.headers), response.read()


def main():
    page_url = sys.argv[1]
    release = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    agent = sys.argv[3] if len(sys.argv) > 3 else IPHONE
    status, headers, body = fetch(page_url, agent)
    parser = Links()
    parser.feed(body.decode("utf-8"))
    report = {"pageStatus": status, "installLinks": parser.installs, "links": parser.all,
              "pageHeaders": {k.lower(): v for k, v in headers.items()}}
    install = next((link for link in parser.installs if release is None or f"%2Freleases%2F{release}%2F" in link), None)
    if install is None:
        print(json.dumps(report))
        return
    parts = urllib.parse.urlsplit(install)
    query = urllib.parse.parse_qs(parts.query)
    manifest_url = query["url"][0]
    report.update({"scheme": parts.scheme, "action": query.get("action", [None])[0], "manifestURL": manifest_url})
    status, headers, body = fetch(manifest_url, INSTALLER)
    manifest = plistlib.loads(body)
    report.update({"manifestStatus": status, "manifestType": headers.get("Content-Type"), "manifest": manifest})
    item = manifest["items"][0]
    package = next(asset["url"] for asset in item["assets"] if asset["kind"] == "software-package")
    status, headers, whole = fetch(package, INSTALLER)
    report.update({"packageURL": package, "packageStatus": status,
                   "packageHeaders": {k.lower(): v for k, v in headers.items()},
                   "wholeSHA256": hashlib.sha256(whole).hexdigest(), "size": len(whole)})
    pieces, statuses, offset, step = [], [], 0, max(1, len(whole) // 3 + 1)
    while offset < len(whole):
        end = min(offset + step, len(whole)) - 1
        status, headers, piece = fetch(package, INSTALLER, {"Range": f"bytes={offset}-{end}"})
        statuses.append([status, headers.get("Content-Range")])
        pieces.append(piece)
        offset = end + 1
    report.update({"rangeStatuses": statuses, "rangesSHA256": hashlib.sha256(b"".join(pieces)).hexdigest()})
    print(json.dumps(report, default=str))


if __name__ == "__main__":
    main()
