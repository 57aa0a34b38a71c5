"""Crash intake under load: wrk's 32 connections POST distinct ~100 KB .ips reports to
`betactl serve` (the raw endpoint, so every 2xx is a durable, fsync'd report) while the server's
background processor symbolicates them against the archived dSYM.

Measures: durable reports accepted per second, how long after the load ends the queue takes to
drain, the server's peak RSS, and that every acknowledged report is in the database.

usage: bench.py BETACTL [--seconds S] [--connections C] [--runs N] [--write-readme]"""
import argparse
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def rss_kib(pid, field):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid):
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_once(betactl, seconds, connections, report, work):
    home = work / "home"
    env = dict(os.environ, BETACTL_HOME=str(home))
    def cli(*args):
        return subprocess.run([betactl, *args], env=env, check=True, capture_output=True, text=True).stdout
    cli("init", "--team-id", "ABCDE12345")
    cli("add-symbols", str(ROOT / "Tests/Fixtures/symbols/arm64-dwarf4/App.dSYM"))
    key = re.search(r"key=(\S+)", cli("crash-key", "create", "com.example.fixture")).group(1)
    server = subprocess.Popen([betactl, "serve", "--listen", "127.0.0.1:0", "--no-access-log", "--crash-rate-limit", "0"],
                              env=env, stderr=subprocess.PIPE, text=True)
    port = None
    for line in server.stderr:
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            port = int(match.group(1))
            break
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
    database = sqlite3.connect(f"file:{home}/betactl.sqlite?mode=ro", uri=True)
    def counts():
        queued = database.execute("SELECT count(*) FROM crash_queue").fetchone()[0]
        total = database.execute("SELECT count(*) FROM crash_reports").fetchone()[0]
        return queued, total
    try:
        peak = [0]
        stop = threading.Event()
        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], rss_kib(server.pid, "VmRSS"))
                time.sleep(0.05)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        url = f"http://127.0.0.1:{port}/api/v1/crashes?key={key}"
        cpu_before = cpu_seconds(server.pid)
        started = time.monotonic()
        wrk = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "30s",
                              "-s", str(HERE / "upload.lua"), url], env=dict(env, REPORT=str(report)), capture_output=True, text=True)
        ended = time.monotonic()
        queued_at_end, _ = counts()
        # Drained: the queue is empty and no upload still in flight when wrk stopped has landed
        # for 100 ms (those are stored, and queued, after wrk's deadline).
        drained, last_total, quiet_since = None, -1, None
        while time.monotonic() - ended < 120:
            queued, total = counts()
            now = time.monotonic()
            if total != last_total:
                last_total, quiet_since = total, now
            if queued == 0:
                drained = drained if drained is not None else now - ended
                if now - quiet_since >= 0.1:
                    break
            else:
                drained = None
            time.sleep(0.01)
        drained = drained if drained is not None else time.monotonic() - ended
        stop.set()
        sampler.join()
        cpu = cpu_seconds(server.pid) - cpu_before
        hwm = rss_kib(server.pid, "VmHWM")
        requests = int(re.search(r"requests=(\d+)", wrk.stderr).group(1))
        failed = int(re.search(r"errors_status=(\d+)", wrk.stderr).group(1))
        socket_errors = re.search(r"Socket errors: (.*)", wrk.stdout)
        accepted = requests - failed
        statuses = dict(database.execute("SELECT status, count(*) FROM crash_reports GROUP BY status").fetchall())
        return {
            "accepted": accepted, "failed": failed, "stored": total, "elapsed": ended - started,
            "rate": accepted / seconds, "queued_at_end": queued_at_end, "drain": drained, "left": queued,
            "peak_rss_mib": max(peak[0], hwm) / 1024, "statuses": statuses,
            "socket_errors": socket_errors.group(1) if socket_errors else "none",
            "cpu_ms": cpu * 1000 / max(total, 1),
            "latency": re.search(r"p50_ms=([\d.]+) p99_ms=([\d.]+)", wrk.stderr).groups(),
        }
    finally:
        server.terminate()
        server.wait(timeout=60)
        database.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("betactl")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write-readme", action="store_true")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="betactl-intake-", dir=str(ROOT / "bench")) as scratch:
        report = Path(scratch) / "report.ips"
        subprocess.run([sys.executable, str(HERE / "make_report.py"), str(report)], check=True)
        size = report.stat().st_size
        for run in range(args.runs):
            work = Path(scratch) / f"run{run}"
            work.mkdir()
            result = run_once(args.betactl, args.seconds, args.connections, report, work)
            print(f"run {run + 1}: {result}", file=sys.stderr)
            results.append(result)
    median = lambda key: statistics.median(r[key] for r in results)
    def each(fmt, key):
        return ", ".join(fmt.format(r[key]) for r in results)
    # wrk stops counting at the deadline: requests still in flight then are stored but not counted.
    stored_ok = "yes" if all(r["stored"] >= r["accepted"] for r in results) else "NO"
    lines = [
        f"Run on {time.strftime('%Y-%m-%d')} (2 CPUs shared with other jobs): {args.runs} runs of {args.seconds} s, "
        f"{args.connections} connections (wrk), a {size // 1000} KB .ips per request (each distinct), rate limit off, "
        "App's dSYM archived so every report is symbolicated in the background. Medians, with every run's value.",
        "",
        "| measure | goal | median | runs |",
        "|---|---|---|---|",
        f"| durable reports accepted per second | ≥ 500 | **{median('rate'):.0f}** | {each('{:.0f}', 'rate')} |",
        f"| queue left when the load ended | | {median('queued_at_end'):.0f} | {each('{}', 'queued_at_end')} |",
        f"| time to drain the queue after the load | ≤ 2 s | **{median('drain'):.2f} s** | {each('{:.2f}', 'drain')} |",
        f"| server CPU per report (intake and symbolication) | | {median('cpu_ms'):.2f} ms | {each('{:.2f}', 'cpu_ms')} |",
        f"| server peak RSS | < 200 MB | **{median('peak_rss_mib'):.0f} MiB** | {each('{:.0f}', 'peak_rss_mib')} |",
        f"| latency p50 / p99 (ms) | | | {', '.join('/'.join(r['latency']) for r in results)} |",
        f"| every 2xx answer stored (stored / 2xx counted) | all | {stored_ok} | {', '.join(str(r['stored']) + '/' + str(r['accepted']) for r in results)} |",
        f"| non-2xx answers; socket errors | 0 | | {'; '.join(str(r['failed']) + ', ' + r['socket_errors'] for r in results)} |",
        f"| final statuses | | | {'; '.join(str(r['statuses']) for r in results)} |",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write_readme:
        readme = HERE / "README.md"
        content = readme.read_text()
        start, end = content.index("<!-- results -->"), content.index("<!-- /results -->")
        readme.write_text(content[:start] + "<!-- results -->\n" + text + "\n" + content[end:])


if __name__ == "__main__":
    main()
