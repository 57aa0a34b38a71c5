"""Writes a ~100 KB iOS crash report (.ips, bug_type 309) of the symbolication fixture App:
Tests/Fixtures/symbols/crashes/App-309.ips with its threads repeated until the file reaches the
size asked for. Its frames point into App (whose dSYM the benchmark archives) and system images,
so the server's background symbolication has real work for every report.

usage: make_report.py OUT [BYTES]"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "Tests/Fixtures/symbols/crashes/App-309.ips"


def main():
    out = Path(sys.argv[1])
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    header, body = SOURCE.read_text().split("\n", 1)
    report = json.loads(body)
    base = report["threads"]
    threads = list(base)
    while True:
        text = header + "\n" + json.dumps(dict(report, threads=threads), indent=2) + "\n"
        if len(text.encode()) >= target:
            break
        for thread in base:
            copy = dict(thread)
            copy["triggered"] = False
            copy["id"] = 1000 + len(threads)
            threads.append(copy)
    out.write_text(text)
    frames = sum(len(t["frames"]) for t in threads)
    print(f"{out}: {len(text.encode())} bytes, {len(threads)} threads, {frames} frames", file=sys.stderr)


if __name__ == "__main__":
    main()
