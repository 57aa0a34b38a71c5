#!/usr/bin/env bash
# Regenerates the formats fixtures: Mach-O executables signed with entitlements, dSYMs,
# an ipa with an app and an extension, an xcarchive, provisioning profiles signed with
# `openssl cms`, CgBI icons and hostile zips.
# Needs: clang, lld-19 (ld64.lld-19), llvm-19 (dsymutil-19, llvm-lipo-19, llvm-dwarfdump-19), openssl, python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# A fixed work path keeps N_OSO paths, and so the linker's LC_UUIDs, identical between runs.
work=/tmp/betactl-formats-fixtures
rm -rf "$work"
mkdir -p "$work"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
export ZERO_AR_DATE=1
python3 "$here/tools/make_fixtures.py" "$here" "$work"
