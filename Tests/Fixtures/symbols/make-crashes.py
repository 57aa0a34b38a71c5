#!/usr/bin/env python3
"""Write crash reports (legacy .crash, .ips bug_type 309, iOS 14 .ips bug_type 109) whose
frames fall in the fixture App, and what llvm-symbolizer says those frames are.

The crashing frame is an instruction inside a two-deep inlined chain; caller frames are
real return addresses (the instruction after each `bl`), so the symbolicator must look up
return address - 1 for them. System frames point into images we have no symbols for.

usage: make-crashes.py UUID APP_BINARY OUTPUT_DIR
"""
import json
import os
import re
import subprocess
import sys

uuid, binary, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out_dir, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
dwarf = os.path.join(here, "arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App")
LOAD = 0x104A28000
TEXT = 0x100000000
LIBSYSTEM = ("libsystem_kernel.dylib", "6d4a5b8e-7c3f-3b2a-9e1d-0a1b2c3d4e5f", 0x1D3E2C000)
DYLD = ("dyld", "0c2e5a4b-1d6f-3e7a-8b9c-1a2b3c4d5e6f", 0x1EA3B0000)

disasm = subprocess.run(["llvm-objdump-19", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True, check=True).stdout
symbols = {}
for line in subprocess.run(["llvm-nm-19", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3:
        symbols[parts[2]] = int(parts[0], 16)


def return_address(caller, callee):
    """The address after the `bl callee` inside `caller`."""
    start = symbols[caller]
    for match in re.finditer(r"^\s*([0-9a-f]+):\s+bl\s+0x([0-9a-f]+)", disasm, re.M):
        site, target = int(match.group(1), 16), int(match.group(2), 16)
        if target == symbols[callee] and site >= start and site < start + 0x400:
            return site + 4
    raise SystemExit(f"no call from {caller} to {callee}")


def deepest_inlined_pc(function):
    """An address in `function` whose inlined chain is the deepest."""
    start = symbols[function]
    best, best_depth = start, 0
    for pc in range(start, start + 0x80, 4):
        out = subprocess.run(["llvm-symbolizer-19", "--inlines", "--no-demangle", f"--obj={dwarf}", hex(pc)],
                             capture_output=True, text=True, check=True).stdout
        lines = out.strip().splitlines()
        depth, names = len(lines) // 2, lines[0::2]
        if depth > best_depth and function.lstrip("_") in names:
            best, best_depth = pc, depth
    return best


crash_pc = deepest_inlined_pc("_parse_number")
app_frames = [
    crash_pc,
    return_address("_parse_pair", "_parse_number"),
    return_address("_main", "_parse_pair"),
]
swift_frames = [
    symbols["_$s7Fixture7compute_5labelBi64_Bi64__Bi64_tF"] + 4,
    return_address("_main", "_$s7Fixture7compute_5labelBi64_Bi64__Bi64_tF"),
]
threads = [
    [("App", TEXT + f - TEXT) for f in app_frames] + [("dyld", 0x6EC8)],
    [("libsystem_kernel.dylib", 0x1B30)] + [("App", f) for f in swift_frames] + [("dyld", 0x6EC8)],
]


def absolute(image, offset):
    if image == "App":
        return LOAD + (offset - TEXT)
    base = {LIBSYSTEM[0]: LIBSYSTEM[2], DYLD[0]: DYLD[2]}[image]
    return base + offset


def legacy_body(header_name):
    lines = []
    for index, frames in enumerate(threads):
        if index == 0:
            lines.append("Thread 0 name:  Dispatch queue: com.apple.main-thread")
        lines.append(f"Thread {index}" + (" Crashed:" if index == 0 else ":"))
        for n, (image, offset) in enumerate(frames):
            addr = absolute(image, offset)
            base = LOAD if image == "App" else absolute(image, 0)
            lines.append(f"{n:<4}{image:<36}\t0x{addr:016x} 0x{base:x} + {addr - base}")
        lines.append("")
    return "\n".join(lines)


images_legacy = "\n".join([
    f"       0x{LOAD:x} -        0x{LOAD + 0x7fff:x} App arm64  <{uuid.replace('-', '').lower()}> /private/var/containers/Bundle/Application/0C1A7D2E-9B3F-4E5A-8C6D-7F8E9A0B1C2D/App.app/App",
    f"       0x{DYLD[2]:x} -        0x{DYLD[2] + 0x5ffff:x} dyld arm64e  <{DYLD[1].replace('-', '')}> /usr/lib/dyld",
    f"       0x{LIBSYSTEM[2]:x} -        0x{LIBSYSTEM[2] + 0x3ffff:x} libsystem_kernel.dylib arm64e  <{LIBSYSTEM[1].upper()}> /usr/lib/system/libsystem_kernel.dylib",
])

header = """Incident Identifier: 4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6
CrashReporter Key:   0123456789abcdef0123456789abcdef01234567
Hardware Model:      iPhone14,5
Process:             App [4242]
Path:                /private/var/containers/Bundle/Application/0C1A7D2E-9B3F-4E5A-8C6D-7F8E9A0B1C2D/App.app/App
Identifier:          com.example.fixture
Version:             1.2 (42)
Code Type:           ARM-64 (Native)
Role:                Foreground
Parent Process:      launchd [1]

Date/Time:           2024-05-06 10:11:12.1314 +0200
Launch Time:         2024-05-06 10:11:02.0000 +0200
OS Version:          iPhone OS 17.4.1 (21E236)
Release Type:        User
Report Version:      104

Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000000
Exception Codes: 0x0000000000000001, 0x0000000000000000
VM Region Info: 0 is not in any region.
Termination Reason: SIGNAL 11 Segmentation fault: 11
Terminating Process: exc handler [4242]

Triggered by Thread:  0

"""
legacy = header + legacy_body("App") + "\nThread 0 crashed with ARM Thread State (64-bit):\n    x0: 0x0000000000000000   x1: 0x0000000000000001\n\nBinary Images:\n" + images_legacy + "\n\nEOF\n"
with open(os.path.join(out_dir, "App-legacy.crash"), "w") as f:
    f.write(legacy)

# iOS 14 style: a JSON header line, then the text report as the body.
ios14_header = {"app_name": "App", "timestamp": "2024-05-06 10:11:12.00 +0200", "app_version": "1.2", "slice_uuid": uuid.lower(),
                "adam_id": 0, "build_version": "42", "bundleID": "com.example.fixture", "share_with_app_devs": False,
                "is_first_party": False, "bug_type": "109", "os_version": "iPhone OS 14.4 (18D52)",
                "incident_id": "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6", "name": "App"}
# The iOS 14 variant also carries the exception backtrace in its line form.
backtrace_lines = "\n".join(f"{n:<4}{'App':<36}\t0x{absolute('App', a):016x} 0x{LOAD:x} + {absolute('App', a) - LOAD}"
                             for n, a in enumerate(app_frames[1:]))
ios14 = legacy.replace("Triggered by Thread:  0", "Crashed Thread:        0").replace(
    "Thread 0 name:", "Last Exception Backtrace:\n" + backtrace_lines + "\n\nThread 0 name:")
with open(os.path.join(out_dir, "App-109.ips"), "w") as f:
    f.write(json.dumps(ios14_header) + "\n" + ios14)

# An uncaught exception in the older layout: "Crashed Thread", the compact backtrace form,
# dashed UUIDs in Binary Images.
compact = "(" + " ".join(f"0x{absolute('App', a):x}" for a in app_frames[1:]) + ")"
exception = legacy.replace("Triggered by Thread:  0", "Crashed Thread:  0").replace(
    "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)\nException Subtype: KERN_INVALID_ADDRESS at 0x0000000000000000\nException Codes: 0x0000000000000001, 0x0000000000000000",
    "Exception Type:  EXC_CRASH (SIGABRT)\nException Codes: 0x0000000000000000, 0x0000000000000000\nException Note:  EXC_CORPSE_NOTIFY").replace(
    "Thread 0 name:", "Application Specific Information:\n*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'fixture'\n\nLast Exception Backtrace:\n" + compact + "\n\nThread 0 name:").replace(
    f"<{uuid.replace('-', '').lower()}>", f"<{uuid.upper()}>").replace("Report Version:      104", "Report Version:      105")
with open(os.path.join(out_dir, "App-exception.crash"), "w") as f:
    f.write(exception)

used = [
    {"source": "P", "arch": "arm64", "base": LOAD, "size": 0x8000, "uuid": uuid.lower(), "path": "/private/var/containers/Bundle/Application/0C1A7D2E-9B3F-4E5A-8C6D-7F8E9A0B1C2D/App.app/App", "name": "App", "CFBundleIdentifier": "com.example.fixture", "CFBundleShortVersionString": "1.2", "CFBundleVersion": "42"},
    {"source": "P", "arch": "arm64e", "base": DYLD[2], "size": 0x60000, "uuid": DYLD[1], "path": "/usr/lib/dyld", "name": "dyld"},
    {"source": "P", "arch": "arm64e", "base": LIBSYSTEM[2], "size": 0x40000, "uuid": LIBSYSTEM[1], "path": "/usr/lib/system/libsystem_kernel.dylib", "name": "libsystem_kernel.dylib"},
]
index_of = {"App": 0, "dyld": 1, "libsystem_kernel.dylib": 2}
body = {
    "incident": "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6", "bug_type": "309", "modelCode": "iPhone14,5", "cpuType": "ARM-64",
    "procName": "App", "procPath": used[0]["path"], "pid": 4242, "captureTime": "2024-05-06 10:11:12.1314 +0200",
    "osVersion": {"train": "iPhone OS 17.4.1", "build": "21E236", "releaseType": "User"},
    "bundleInfo": {"CFBundleShortVersionString": "1.2", "CFBundleVersion": "42", "CFBundleIdentifier": "com.example.fixture"},
    "exception": {"codes": "0x0000000000000001, 0x0000000000000000", "rawCodes": [1, 0], "type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "subtype": "KERN_INVALID_ADDRESS at 0x0000000000000000"},
    "termination": {"flags": 0, "code": 11, "namespace": "SIGNAL", "indicator": "Segmentation fault: 11", "byProc": "exc handler", "byPid": 4242},
    "faultingThread": 0,
    "threads": [
        {"triggered": index == 0, "id": 1000 + index, **({"queue": "com.apple.main-thread"} if index == 0 else {}),
         "frames": [{"imageOffset": (offset - TEXT) if image == "App" else offset, "imageIndex": index_of[image]} for image, offset in frames]}
        for index, frames in enumerate(threads)
    ],
    "usedImages": used,
}
ips_header = {"app_name": "App", "timestamp": "2024-05-06 10:11:12.00 +0200", "app_version": "1.2", "slice_uuid": uuid.lower(),
              "build_version": "42", "bundleID": "com.example.fixture", "platform": 2, "bug_type": "309",
              "os_version": "iPhone OS 17.4.1 (21E236)", "incident_id": "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6", "name": "App"}
with open(os.path.join(out_dir, "App-309.ips"), "w") as f:
    f.write(json.dumps(ips_header) + "\n" + json.dumps(body, indent=2) + "\n")

# The oracle: for every App frame, what llvm-symbolizer says at the pc (frame 0 of a thread) or return address - 1.
with open(os.path.join(out_dir, "expected-frames.tsv"), "w") as f:
    f.write("# thread\tframe\tdepth\tfunction\tfile\tline\tcolumn  (llvm-symbolizer-19 --inlines --no-demangle at pc / return address - 1)\n")
    for t, frames in enumerate(threads):
        for n, (image, offset) in enumerate(frames):
            if image != "App":
                continue
            lookup = offset if n == 0 else offset - 1
            out = subprocess.run(["llvm-symbolizer-19", "--inlines", "--no-demangle", "--output-style=JSON", f"--obj={dwarf}", hex(lookup)],
                                 capture_output=True, text=True, check=True).stdout
            for depth, frame in enumerate(json.loads(out)[0]["Symbol"]):
                f.write(f"{t}\t{n}\t{depth}\t{frame['FunctionName']}\t{frame['FileName']}\t{frame['Line']}\t{frame['Column']}\n")
