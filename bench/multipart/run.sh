#!/bin/sh
# Speed of the Multipart parser on one large part, in a release (-O, whole-module) build:
# binary and crash-log-like text content through a counting consumer, next to a bare memchr
# scan of the same bytes (the floor), and binary content spooled to a file by SpoolingConsumer
# (with max RSS, which shows the part is never held in memory). Goal: well over 1 GB/s.
# Usage: bench/multipart/run.sh [size-in-MB] [spool-directory]
set -eu
cd "$(dirname "$0")/../.."
SIZE_MB="${1:-512}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
SPOOL="${2:-$WORK}"
swiftc -swift-version 6 -O -wmo -module-name MultipartBench Sources/Multipart/*.swift bench/multipart/main.swift -o "$WORK/multipart-bench"
"$WORK/multipart-bench" "$SIZE_MB" "$SPOOL"
