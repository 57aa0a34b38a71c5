#!/usr/bin/env bash
# Regenerates the inspect fixtures: device enrolment replies and .mobileconfig files signed with
# `openssl cms` (DER and, with -stream, BER with indefinite lengths), .ips reports of several
# bug_types in the shape of real ones, KSCrash JSON of format versions 2.x-3.x with and without
# binary_images, a HockeySDK crash upload and a PLCrashReporter header.
# Needs: openssl, python3 (standard library only).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/make_inspect_fixtures.py" "$here" "$work"
