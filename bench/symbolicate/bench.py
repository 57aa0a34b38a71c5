#!/usr/bin/env python3
"""Side-by-side benchmark: `betactl symbolicate` against llvm-symbolizer on the same addresses,
and betactl's symbol-index build against `llvm-dwarfdump --debug-line` on the same dSYM.

For each dataset it
  1. builds the index with a cold cache (wall time, peak RSS, peak anonymous memory) and runs
     llvm-dwarfdump-19 --debug-line on the same DWARF file;
  2. writes N crash reports (3 threads x 25 frames in the image, plus system frames) and
     symbolicates each one with a warm index, one process per report, and gives llvm-symbolizer
     --inlines exactly the addresses betactl looks up (pc for frame 0, return address - 1 for the
     others), also one process per report;
  3. checks that both agree on every frame (function, file, line).

Prints a Markdown section and, with --write-readme, replaces the results block in README.md.
usage: bench.py [--reports N] [--runs R] [--write-readme]
"""
import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# `swift build -c release` links the Swift runtime and FoundationEssentials statically on Linux
# (Package.swift), so this is the binary a user installs.
BETACTL = os.path.join(ROOT, ".build/release/betactl")


def _symbolizer_candidates():
    """Every llvm-symbolizer on the machine: the Swift toolchain's (statically linked, beside
    `swift`) and Debian's (which loads libLLVM, about 20 ms per start)."""
    found = []
    swift = shutil.which("swift")
    if swift:
        beside = os.path.join(os.path.dirname(os.path.realpath(swift)), "llvm-symbolizer")
        if os.access(beside, os.X_OK):
            found.append(beside)
    for name in ("llvm-symbolizer-19", "llvm-symbolizer"):
        path = shutil.which(name)
        if path and os.path.realpath(path) not in [os.path.realpath(f) for f in found]:
            found.append(path)
    return found


def _fastest_symbolizer():
    """The candidate that starts fastest (CPU time of a few runs on an empty input): the peer
    must be the fastest llvm-symbolizer on the machine, or per-report ratios flatter betactl."""
    best, best_time = None, None
    for candidate in _symbolizer_candidates():
        times = []
        for _ in range(5):
            before = os.times()
            subprocess.run([candidate, "--obj=/bin/true"], input=b"0x0\n", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            after = os.times()
            times.append(after.children_user + after.children_system - before.children_user - before.children_system)
        cost = statistics.median(times)
        if best_time is None or cost < best_time:
            best, best_time = candidate, cost
    return best or "llvm-symbolizer"


SYMBOLIZER = _fastest_symbolizer()
DWARFDUMP = shutil.which("llvm-dwarfdump-19") or "llvm-dwarfdump"
NM = shutil.which("llvm-nm-19") or "llvm-nm"
SHARED = os.path.join(ROOT, "..", "shared", "fixtures", "crash", "crashprobe")
LOAD = 0x102A00000


def measure(command, stdin=None, stdout=subprocess.DEVNULL):
    """Runs `command`; returns (CPU seconds, peak RSS KiB, peak anonymous KiB, wall seconds).

    CPU time (user + system, from wait4) is the primary figure: the benchmark machine is shared,
    and wall time there mostly measures other people's work."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL)
    peak_rss = peak_anon = 0
    status = f"/proc/{process.pid}/status"
    while True:
        pid, code, usage = os.wait4(process.pid, os.WNOHANG)
        if pid == process.pid:
            break
        try:
            text = open(status).read()
            rss = re.search(r"VmRSS:\s+(\d+)", text)
            anon = re.search(r"RssAnon:\s+(\d+)", text)
            if rss:
                peak_rss = max(peak_rss, int(rss.group(1)))
            if anon:
                peak_anon = max(peak_anon, int(anon.group(1)))
        except OSError:
            pass
        time.sleep(0.001)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(code)
    if process.returncode != 0:
        raise SystemExit(f"{command[0]} failed with status {process.returncode}")
    # (ru_maxrss is not used: it includes the forked Python before exec.)
    return usage.ru_utime + usage.ru_stime, peak_rss, peak_anon, wall


def dwarf_file(dsym):
    folder = os.path.join(dsym, "Contents/Resources/DWARF")
    return os.path.join(folder, sorted(os.listdir(folder))[0])


def uuid_and_text(dwarf):
    out = subprocess.run([DWARFDUMP, "--uuid", dwarf], capture_output=True, text=True, check=True).stdout.split()
    otool = subprocess.run(["llvm-otool-19", "-l", dwarf], capture_output=True, text=True, check=True).stdout
    segment = otool[otool.index("segname __TEXT"):]
    vmaddr = int(re.search(r"vmaddr 0x([0-9a-f]+)", segment).group(1), 16)
    return out[1], vmaddr


def functions(dwarf):
    """(start, size) of code symbols, from the dSYM's symbol table (size up to the next symbol)."""
    out = subprocess.run([NM, "-n", "--defined-only", dwarf], capture_output=True, text=True, check=True).stdout
    entries = [(int(p[0], 16), p[1]) for p in (line.split() for line in out.splitlines()) if len(p) == 3]
    result = []
    for (address, kind), following in zip(entries, entries[1:] + [(entries[-1][0], "")]):
        if kind in ("t", "T") and following[0] - address >= 8:
            result.append((address, following[0] - address))
    return result


def make_reports(name, dsym, count, directory):
    """Writes `count` .crash reports into `directory`; returns the lookup addresses per report."""
    dwarf = dwarf_file(dsym)
    uuid, vmaddr = uuid_and_text(dwarf)
    starts = functions(dwarf)
    rng = random.Random(7)
    lookups = []
    for r in range(count):
        lines = ["Incident Identifier: 00000000-0000-4000-8000-%012d" % r, f"Process:             {name} [1]",
                 "Code Type:           ARM-64 (Native)", "Report Version:      104", "",
                 "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)", "Triggered by Thread:  0", ""]
        addresses = []
        for t in range(3):
            lines.append(f"Thread {t}{' Crashed' if t == 0 else ''}:")
            for n in range(26):
                if n == 25:
                    lines.append(f"{n:<4}{'libdyld.dylib':<36}\t0x00000001a0b0c0d0 0x1a0b00000 + 49360")
                    continue
                start, size = rng.choice(starts)
                offset = start + rng.randrange(4, min(size, 256), 4) - vmaddr
                address = LOAD + offset
                lines.append(f"{n:<4}{name:<36}\t0x{address:016x} 0x{LOAD:x} + {offset}")
                addresses.append(vmaddr + (offset if n == 0 else offset - 1))
            lines.append("")
        lines += ["Binary Images:",
                  f"       0x{LOAD:x} -        0x{LOAD + 0xfffffff:x} {name} arm64  <{uuid.replace('-', '').lower()}> /private/var/containers/Bundle/Application/X/{name}.app/{name}",
                  "       0x1a0b00000 -        0x1a0bfffff libdyld.dylib arm64e  <0c2e5a4b1d6f3e7a8b9c1a2b3c4d5e6f> /usr/lib/system/libdyld.dylib", ""]
        path = os.path.join(directory, f"{name}-{r}.crash")
        with open(path, "w") as f:
            f.write("\n".join(lines))
        write_ips(os.path.join(directory, f"{name}-{r}.ips"), name, r, uuid, lines)
        lookups.append((path, addresses))
    return lookups


def write_ips(path, name, number, uuid, crash_lines):
    """The same report as an iOS 15+ `.ips` (a header line, then the JSON body as iOS writes it):
    every frame as an image index and offset, the images as `usedImages`."""
    images = [(name, LOAD, uuid, "arm64", f"/private/var/containers/Bundle/Application/X/{name}.app/{name}"),
              ("libdyld.dylib", 0x1a0b00000, "0c2e5a4b-1d6f-3e7a-8b9c-1a2b3c4d5e6f", "arm64e", "/usr/lib/system/libdyld.dylib")]
    threads = []
    for line in crash_lines:
        if line.startswith("Thread "):
            threads.append({"id": 1000 + len(threads), "frames": []})
            if len(threads) == 1:
                threads[0].update({"triggered": True, "queue": "com.apple.main-thread"})
        elif threads and re.match(r"\d+\s", line) and " + " in line:
            image = 0 if line.split()[1] == name else 1
            threads[-1]["frames"].append({"imageOffset": int(line.rsplit("+", 1)[1]), "imageIndex": image})
    incident = "00000000-0000-4000-8000-%012d" % number
    header = {"app_name": name, "timestamp": "2024-05-06 10:11:12.00 +0200", "app_version": "1.2", "slice_uuid": uuid.lower(),
              "build_version": "42", "bundleID": "com.example." + name, "platform": 2, "bug_type": "309",
              "os_version": "iPhone OS 17.4.1 (21E236)", "incident_id": incident, "name": name}
    body = {"incident": incident, "bug_type": "309", "modelCode": "iPhone14,5", "cpuType": "ARM-64", "procName": name,
            "procPath": images[0][4], "pid": 1, "captureTime": "2024-05-06 10:11:12.1314 +0200",
            "osVersion": {"train": "iPhone OS 17.4.1", "build": "21E236", "releaseType": "User"},
            "bundleInfo": {"CFBundleShortVersionString": "1.2", "CFBundleVersion": "42", "CFBundleIdentifier": "com.example." + name},
            "exception": {"codes": "0x0000000000000001, 0x0000000000000000", "rawCodes": [1, 0], "type": "EXC_BAD_ACCESS",
                          "signal": "SIGSEGV", "subtype": "KERN_INVALID_ADDRESS at 0x0000000000000000"},
            "faultingThread": 0, "threads": threads,
            "usedImages": [{"source": "P", "arch": arch, "base": base, "size": 0x10000000 if index == 0 else 0x100000,
                            "uuid": image_uuid.lower(), "path": image_path, "name": image_name}
                           for index, (image_name, base, image_uuid, arch, image_path) in enumerate(images)]}
    # Laid out as iOS writes it: one top-level member per line ("name" : value), each value compact.
    members = ",\n".join(f"  {json.dumps(name)} : {json.dumps(value, separators=(',', ':'))}" for name, value in body.items())
    with open(path, "w") as f:
        f.write(json.dumps(header) + "\n{\n" + members + "\n}")


def agreement(home, dsym, dwarf, lookups):
    """Compares betactl --json frames with llvm-symbolizer for every looked-up address."""
    same = total = 0
    for path, addresses in lookups:
        ours = json.loads(subprocess.run([BETACTL, "--home", home, "symbolicate", path, "--dsym", dsym, "--json"],
                                         capture_output=True, text=True, check=True).stdout)
        frames = [f for t in ours["threads"] for f in t["frames"] if f["status"] != "noSymbols"]
        theirs = subprocess.run([SYMBOLIZER, "--inlines", "--no-demangle", "--output-style=JSON", f"--obj={dwarf}"],
                                input="\n".join(hex(a) for a in addresses), capture_output=True, text=True, check=True).stdout
        for frame, line in zip(frames, theirs.splitlines()):
            # Both tools' "unknown" spellings normalised to llvm-symbolizer's text output ("??").
            expected = [(s["FunctionName"] or "??", s["FileName"] or "??", s["Line"]) for s in json.loads(line)["Symbol"]]
            got = [(l.get("rawFunction") or "??", l.get("file") or "??", l["line"]) for l in frame["locations"]] or [("??", "??", 0)]
            same += expected == got
            total += 1
    return same, total


def run_dataset(name, dsym, reports, runs, work):
    dwarf = dwarf_file(dsym)
    home = os.path.join(work, f"home-{name}")
    subprocess.run([BETACTL, "--home", home, "init"], check=True, capture_output=True)
    directory = os.path.join(work, f"reports-{name}")
    os.makedirs(directory)
    lookups = make_reports(name, dsym, reports, directory)
    cache = os.path.join(home, "cache", "symbols")

    builds = []
    for _ in range(runs):
        shutil.rmtree(cache, ignore_errors=True)
        builds.append(measure([BETACTL, "--home", home, "symbolicate", lookups[0][0], "--dsym", dsym]))
    dumps = [measure([DWARFDUMP, "--debug-line", dwarf]) for _ in range(runs)]
    index_size = sum(os.path.getsize(os.path.join(cache, f)) for f in os.listdir(cache))

    def per_report_betactl():
        runs = [measure([BETACTL, "--home", home, "symbolicate", path, "--dsym", dsym]) for path, _ in lookups]
        return sum(r[0] for r in runs) / len(runs), sum(r[3] for r in runs) / len(runs)

    def per_report_llvm():
        runs = []
        for _, addresses in lookups:
            with tempfile.TemporaryFile("w+") as f:
                f.write("\n".join(hex(a) for a in addresses) + "\n")
                f.seek(0)
                runs.append(measure([SYMBOLIZER, "--inlines", f"--obj={dwarf}"], stdin=f))
        return sum(r[0] for r in runs) / len(runs), sum(r[3] for r in runs) / len(runs)

    def batch_llvm(repeat=1):
        """One llvm-symbolizer run over every report's addresses, `repeat` times over; per report."""
        with tempfile.TemporaryFile("w+") as f:
            f.write("\n".join(hex(a) for _, addresses in lookups * repeat for a in addresses) + "\n")
            f.seek(0)
            r = measure([SYMBOLIZER, "--inlines", f"--obj={dwarf}"], stdin=f)
            return r[0] / (repeat * len(lookups)), r[3] / (repeat * len(lookups))

    def batch_betactl(repeat=1, suffix=".crash"):
        """One betactl run over every report, `repeat` times over; per report (betactl reads,
        parses, resolves and prints each whole report; llvm-symbolizer gets its bare addresses)."""
        paths = [p[: -len(".crash")] + suffix for p, _ in lookups * repeat]
        r = measure([BETACTL, "--home", home, "symbolicate", *paths, "--dsym", dsym])
        return r[0] / (repeat * len(lookups)), r[3] / (repeat * len(lookups))

    def once_running(batch, **options):
        """What one more report costs a running process: the difference between a run over the
        reports 50 times and one over them 10 times, divided by the 40N reports in between.
        Start-up, loading the index or parsing the DWARF and first-time work cancel out, as
        they do in a server that has been running for a while."""
        short, long = batch(repeat=10, **options), batch(repeat=50, **options)
        count = 40 * len(lookups)
        return ((long[0] * 50 - short[0] * 10) * len(lookups) / count, (long[1] * 50 - short[1] * 10) * len(lookups) / count)

    ours, theirs, ours_batch, theirs_batch, ours_long, theirs_long, ours_ips = [], [], [], [], [], [], []
    for _ in range(runs):
        ours.append(per_report_betactl())
        theirs.append(per_report_llvm())
        ours_batch.append(batch_betactl())
        theirs_batch.append(batch_llvm())
        if name != "Large":
            # (On the large dSYM start-up is negligible beside the lookups; ten times over is enough.)
            ours_long.append(once_running(batch_betactl))
            theirs_long.append(once_running(batch_llvm))
            ours_ips.append(once_running(batch_betactl, suffix=".ips"))
        else:
            ours_long.append(batch_betactl(repeat=10))
            theirs_long.append(batch_llvm(repeat=10))
    same, total = agreement(home, dsym, dwarf, lookups)
    median = statistics.median

    def pick(samples):
        """Median CPU time and median wall time of (cpu, wall) samples."""
        return (median(c for c, _ in samples), median(w for _, w in samples))
    return {
        "name": name, "dwarf_mb": os.path.getsize(dwarf) / 1e6, "index_mb": index_size / 1e6,
        "build": (median(b[0] for b in builds), max(b[1] for b in builds), max(b[2] for b in builds), median(b[3] for b in builds)),
        "dump": (median(d[0] for d in dumps), max(d[1] for d in dumps), median(d[3] for d in dumps)),
        "ours": pick(ours), "theirs": pick(theirs), "ours_batch": pick(ours_batch), "theirs_batch": pick(theirs_batch),
        "ours_long": pick(ours_long), "theirs_long": pick(theirs_long), "ours_ips": pick(ours_ips) if ours_ips else None,
        "frames": len(lookups[0][1]), "reports": len(lookups), "same": same, "total": total,
    }


def markdown(results, runs):
    tool = subprocess.run([SYMBOLIZER, "--version"], capture_output=True, text=True).stdout.splitlines()
    version = next((l.strip() for l in tool if "version" in l.lower()), "llvm-symbolizer")
    ms = lambda pair: f"{pair[0] * 1000:.2f} ms ({pair[1] * 1000:.1f})"
    out = [f"Run on {time.strftime('%Y-%m-%d')} ({os.cpu_count()} CPUs shared with other jobs), median of {runs} runs; the peer is "
           f"`{SYMBOLIZER}` ({version}), the fastest llvm-symbolizer on the machine.",
           "Times are CPU time (user + system) with wall-clock time in parentheses: on a shared machine the",
           "wall clock mostly measures the neighbours. Ratios use CPU time.", ""]
    out.append("**Symbolicating crash reports, one process per report** (warm index; llvm-symbolizer --inlines gets the same addresses):")
    out.append("")
    out.append("| dSYM | frames/report | betactl | llvm-symbolizer | ratio | agreement |")
    out.append("|---|---|---|---|---|---|")
    for r in results:
        out.append(f"| {r['name']} ({r['dwarf_mb']:.1f} MB) | {r['frames']} | {ms(r['ours'])} | {ms(r['theirs'])} | "
                   f"**{r['theirs'][0] / r['ours'][0]:.1f}x** | {r['same']}/{r['total']} frames |")
    out.append("")
    out.append(f"**Symbolicating crash reports in one process** (`betactl symbolicate R1 … R{results[0]['reports']}` against llvm-symbolizer "
               "reading every report's addresses from one stdin), per report (the whole run divided by the number of reports):")
    out.append("")
    out.append("| dSYM | betactl | llvm-symbolizer | ratio |")
    out.append("|---|---|---|---|")
    for r in results:
        out.append(f"| {r['name']} ({r['dwarf_mb']:.1f} MB) | {ms(r['ours_batch'])} | {ms(r['theirs_batch'])} | "
                   f"**{r['theirs_batch'][0] / r['ours_batch'][0]:.1f}x** |")
    out.append("")
    n = results[0]['reports']
    out.append(f"**Once running**, per report: what one more report costs a running process, the difference between a run "
               f"over the reports 50 times ({50 * n} in one process) and one over them 10 times ({10 * n}), divided by the "
               f"{40 * n} reports in between (start-up and first-time work cancel out, as in the server). On the large dSYM, "
               f"where start-up hardly counts, the {10 * n}-report run divided by {10 * n}. The `.ips` row is the same reports "
               "as iOS 15+ JSON `.ips` files (what testers send), against the same llvm-symbolizer run.")
    out.append("")
    out.append("| dSYM | betactl | llvm-symbolizer | ratio |")
    out.append("|---|---|---|---|")
    us = lambda pair: f"{pair[0] * 1e6:.1f} µs ({pair[1] * 1e6:.1f})"
    for r in results:
        out.append(f"| {r['name']} ({r['dwarf_mb']:.1f} MB) | {us(r['ours_long'])} | {us(r['theirs_long'])} | "
                   f"**{r['theirs_long'][0] / r['ours_long'][0]:.1f}x** |")
        if r["ours_ips"]:
            out.append(f"| {r['name']}, `.ips` reports | {us(r['ours_ips'])} | {us(r['theirs_long'])} | "
                       f"**{r['theirs_long'][0] / r['ours_ips'][0]:.1f}x** |")
    out.append("")
    out.append("**Building the symbol index** (cold cache: `betactl symbolicate` of one report, which builds the index) "
               "against `llvm-dwarfdump-19 --debug-line` on the same DWARF file:")
    out.append("")
    out.append("| dSYM | betactl index build | peak RSS | peak anonymous | index size | llvm-dwarfdump --debug-line | its peak RSS |")
    out.append("|---|---|---|---|---|---|---|")
    for r in results:
        b, d = r["build"], r["dump"]
        out.append(f"| {r['name']} ({r['dwarf_mb']:.1f} MB) | {b[0]:.3f} s (wall {b[3]:.2f} s) | {b[1] / 1024:.0f} MiB | {b[2] / 1024:.0f} MiB | "
                   f"{r['index_mb']:.1f} MB | {d[0]:.3f} s (wall {d[2]:.2f} s) | {d[1] / 1024:.0f} MiB |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reports", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write-readme", action="store_true")
    args = parser.parse_args()
    datasets = [("Large", os.path.join(ROOT, "bench/out/large/Large.dSYM"))]
    if os.path.isdir(SHARED):
        datasets.append(("CrashLibiOS", os.path.join(SHARED, "arm64-CrashLibiOS.framework.dSYM")))
    datasets.append(("App", os.path.join(ROOT, "Tests/Fixtures/symbols/arm64-dwarf4/App.dSYM")))
    with tempfile.TemporaryDirectory(prefix="betactl-bench-") as work:
        results = [run_dataset(name, dsym, args.reports, args.runs, work) for name, dsym in datasets]
    text = markdown(results, args.runs)
    print(text)
    if args.write_readme:
        readme = os.path.join(os.path.dirname(__file__), "README.md")
        content = open(readme).read()
        start, end = "<!-- results -->", "<!-- /results -->"
        content = content[:content.index(start) + len(start)] + "\n" + text + "\n" + content[content.index(end):]
        open(readme, "w").write(content)


if __name__ == "__main__":
    main()
