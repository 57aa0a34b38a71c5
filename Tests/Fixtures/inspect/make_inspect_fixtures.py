"""Makes the inspect fixtures (see README.md). Usage: make_inspect_fixtures.py OUT_DIR WORK_DIR."""
import json
import os
import plistlib
import subprocess
import sys

OUT, WORK = sys.argv[1], sys.argv[2]


def run(*args):
    subprocess.run(args, cwd=WORK, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def write(name, data):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())


def work(name, data):
    with open(os.path.join(WORK, name), "wb") as handle:
        handle.write(data)
    return name

# ---------------------------------------------------------------- certificates

# A stand-in for Apple's iPhone Device CA, expired like the real one (2007-2022), and a device
# certificate it issued, expired too: enrolment must never refuse a reply for that.
CA_CONFIG = """
[ ca ]
default_ca = fixture
[ fixture ]
dir = .
database = index.txt
new_certs_dir = .
serial = serial.txt
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[ anything ]
commonName = supplied
organizationName = optional
organizationalUnitName = optional
countryName = optional
[ ca_ext ]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ device_ext ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature,keyEncipherment
subjectKeyIdentifier = hash
"""
work("ca.cnf", CA_CONFIG.encode())
work("index.txt", b"")
work("serial.txt", b"1000\n")
run("openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.csr",
    "-subj", "/C=US/O=Apple Inc./OU=Apple iPhone/CN=Apple iPhone Device CA (betactl fixture)")
run("openssl", "ca", "-batch", "-config", "ca.cnf", "-selfsign", "-keyfile", "ca.key", "-in", "ca.csr", "-out", "ca.pem",
    "-startdate", "20070416000000Z", "-enddate", "20220412000000Z", "-extensions", "ca_ext", "-notext")
UDID = "00008110-000A1B2C3D4E5F60"
run("openssl", "req", "-new", "-newkey", "rsa:1024", "-nodes", "-keyout", "device.key", "-out", "device.csr",
    "-subj", "/CN=" + UDID)
run("openssl", "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "device.csr",
    "-out", "device.pem", "-startdate", "20190301000000Z", "-enddate", "20220301000000Z", "-extensions", "device_ext", "-notext")
# Whoever signs served .mobileconfig files (a web server's certificate in real life).
run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.pem", "-days", "36500",
    "-subj", "/CN=beta.example.com (betactl fixture)/O=Example Beta", "-set_serial", "4242")


def sign(payload, dest, signer, key, ber=False, certfile=None):
    source = work(dest + ".in", payload)
    args = ["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", source,
            "-signer", signer, "-inkey", key, "-out", dest]
    if certfile:
        args += ["-certfile", certfile]
    if ber:
        args.append("-stream")
    run(*args)
    with open(os.path.join(WORK, dest), "rb") as handle:
        data = handle.read()
    assert (data[1] == 0x80) == ber, dest
    return data

# ---------------------------------------------------------------- enrolment replies


def reply(attributes):
    return plistlib.dumps(attributes, fmt=plistlib.FMT_XML)


phone = {"UDID": UDID, "PRODUCT": "iPhone15,2", "VERSION": "21A329", "SERIAL": "F2LXK0ABCDEF",
         "DEVICE_NAME": "Ann\u2019s iPhone", "IMEI": "35 123456 789012 3", "CHALLENGE": "c-7f3a9b1e5d2c4a6f"}
write("enrollment/reply-iphone.der", sign(reply(phone), "reply-iphone.der", "device.pem", "device.key", certfile="ca.pem"))
write("enrollment/reply-iphone-ber.der", sign(reply(phone), "reply-iphone-ber.der", "device.pem", "device.key", ber=True, certfile="ca.pem"))
ipad = {"UDID": "7d3c0a4f9e8b1c2d3e4f5a6b7c8d9e0f1a2b3c4d", "PRODUCT": "iPad13,4", "VERSION": "20G75",
        "SERIAL": "DMPXQ1ABCD12", "DEVICE_NAME": "QA iPad", "CHALLENGE": "c-0a1b2c3d"}
write("enrollment/reply-ipad-wifi.der", sign(reply(ipad), "reply-ipad.der", "device.pem", "device.key"))
bad = dict(phone, UDID="not-a-udid")
write("enrollment/reply-bad-udid.der", sign(reply(bad), "reply-bad.der", "device.pem", "device.key"))

# ---------------------------------------------------------------- .mobileconfig

service = {
    "PayloadType": "Profile Service", "PayloadVersion": 1, "PayloadIdentifier": "com.example.beta.enroll",
    "PayloadUUID": "6F1D2C3B-4A59-4E6D-8C7B-9A0B1C2D3E4F", "PayloadDisplayName": "Example Beta enrolment",
    "PayloadOrganization": "Example Beta", "PayloadDescription": "Sends this device's UDID to the beta server.",
    "PayloadContent": {"URL": "https://beta.example.com/enroll/t0k3n", "DeviceAttributes": ["UDID", "PRODUCT", "VERSION", "SERIAL", "DEVICE_NAME", "IMEI"],
                       "Challenge": "c-7f3a9b1e5d2c4a6f"},
}
service_xml = plistlib.dumps(service, fmt=plistlib.FMT_XML)
write("mobileconfig/profile-service.mobileconfig", service_xml)
write("mobileconfig/profile-service-signed.mobileconfig", sign(service_xml, "ps.der", "server.pem", "server.key"))
write("mobileconfig/profile-service-signed-ber.mobileconfig", sign(service_xml, "ps-ber.der", "server.pem", "server.key", ber=True))
wifi = {
    "PayloadType": "Configuration", "PayloadVersion": 1, "PayloadIdentifier": "com.example.office",
    "PayloadUUID": "0B9E8D7C-6B5A-4F3E-9D2C-1B0A9F8E7D6C", "PayloadDisplayName": "Office network",
    "PayloadContent": [
        {"PayloadType": "com.apple.wifi.managed", "PayloadVersion": 1, "PayloadIdentifier": "com.example.office.wifi",
         "PayloadUUID": "1C2D3E4F-5A6B-4C7D-8E9F-0A1B2C3D4E5F", "SSID_STR": "Example", "EncryptionType": "WPA2", "Password": "fixture-only"},
        {"PayloadType": "com.apple.security.root", "PayloadVersion": 1, "PayloadIdentifier": "com.example.office.ca",
         "PayloadUUID": "2D3E4F5A-6B7C-4D8E-9F0A-1B2C3D4E5F6A", "PayloadContent": b"not a real certificate"},
    ],
}
write("mobileconfig/configuration-wifi.mobileconfig", plistlib.dumps(wifi, fmt=plistlib.FMT_XML))
write("mobileconfig/configuration-wifi-signed.mobileconfig", sign(plistlib.dumps(wifi, fmt=plistlib.FMT_XML), "wifi.der", "server.pem", "server.key"))

# ---------------------------------------------------------------- .ips reports


def ips(header, body):
    """An .ips file: a one-line JSON header, then the body (pretty JSON or text)."""
    text = body if isinstance(body, str) else json.dumps(body, indent=2)
    return json.dumps(header, separators=(",", ":")) + "\n" + text + "\n"


def header(bug_type, name, **extra):
    fields = {"bug_type": bug_type, "timestamp": "2024-05-06 10:11:12.00 +0200", "os_version": "iPhone OS 17.4.1 (21E236)",
              "incident_id": "9A8B7C6D-5E4F-4A3B-9C2D-1E0F9A8B7C6D", "name": name}
    fields.update(extra)
    return fields


def process(name, pid, rpages, reason=None, states=("suspended",), uuid="3c1e8a2b-4d5f-3e6a-9b7c-0d1e2f3a4b5c", **extra):
    entry = {"uuid": uuid, "states": list(states), "lifetimeMax": rpages + 100, "purgeable": 0, "fds": 50, "coalition": 100 + pid,
             "rpages": rpages, "priority": 0, "physicalPages": {"internal": [rpages - 10, 10]}, "pid": pid, "cpuTime": 1.25, "name": name}
    if reason:
        entry["reason"] = reason
        entry["killDelta"] = 1234
    entry.update(extra)
    return entry


jetsam_body = {
    "crashReporterKey": "0123456789abcdef0123456789abcdef01234567",
    "kernel": "Darwin Kernel Version 23.4.0: Fri Mar  8 23:30:42 PST 2024; root:xnu-10063.102.14~67/RELEASE_ARM64_T8110",
    "product": "iPhone14,5", "incident": "9A8B7C6D-5E4F-4A3B-9C2D-1E0F9A8B7C6D", "date": "2024-05-06 10:11:12.34 +0200",
    "build": "iPhone OS 17.4.1 (21E236)", "timeDelta": 6, "largestProcess": "App", "genCounter": 0,
    "memoryStatus": {"compressorSize": 40000, "compressions": 900000, "decompressions": 600000, "zoneMapCap": 1073741824,
                     "largestZone": "APFS_4K_OBJS", "largestZoneSize": 41615360, "pageSize": 16384, "uncompressed": 110000,
                     "zoneMapSize": 170000000,
                     "memoryPages": {"active": 90000, "throttled": 0, "fileBacked": 60000, "wired": 50000, "anonymous": 80000,
                                     "purgeable": 100, "inactive": 40000, "free": 2000, "speculative": 1000}},
    "processes": [
        process("SpringBoard", 34, 9000, states=("active",)),
        process("App", 4242, 120000, reason="per-process-limit", states=("frontmost", "resume"),
                uuid="4c4c440b-5555-3144-a184-68d7aacd7c75"),
        process("MobileSafari", 812, 30000, reason="vm-pageshortage"),
        process("mediaserverd", 95, 4000, states=("daemon",)),
        process("Mail", 920, 30000),
    ],
}
write("ips/JetsamEvent-2024-05-06-101112.ips", ips(header("298", "JetsamEvent"), jetsam_body))
# The iOS 12-era layout: pageSize at the top level, no memoryStatus.memoryPages.
old = {k: v for k, v in jetsam_body.items() if k != "memoryStatus"}
old.update({"pageSize": 16384, "build": "iPhone OS 12.4 (16G77)", "product": "iPhone10,6", "largestProcess": "MobileSafari"})
old["processes"] = [process("MobileSafari", 812, 50000, reason="highwater"), process("App", 4242, 20000, states=("frontmost",))]
write("ips/JetsamEvent-2019-08-01-090000.ips", ips(header("298", "JetsamEvent", os_version="iPhone OS 12.4 (16G77)"), old))

write("ips/App.cpu_resource-2024-05-06-101112.ips", ips(
    header("202", "App", app_name="App", app_version="1.2", build_version="42", bundleID="com.example.fixture"),
    {"modelCode": "iPhone14,5", "procName": "App", "procPath": "/private/var/containers/Bundle/Application/0C1A7D2E/App.app/App",
     "bundleInfo": {"CFBundleIdentifier": "com.example.fixture", "CFBundleShortVersionString": "1.2", "CFBundleVersion": "42"},
     "resourceType": "cpu", "cpuLimit": "80%", "cpuLimitDuration": "60 seconds", "cpuUsed": "48.02 seconds",
     "duration": "60.00 seconds", "action": "none", "sampleCount": 6}))
write("ips/App.diskwrites_resource-2024-05-06-101112.ips", ips(
    header("145", "App", app_name="App"),
    "Date/Time:        2024-05-06 10:11:12.000 +0200\nOS Version:       iPhone OS 17.4.1 (21E236)\nEvent:            disk writes\n"
    "Action taken:     none\nWrites:           1073.74 MB of file backed memory dirtied over 300 seconds (3.58 MB per second average), exceeding limit of 12.43 KB per second over 86400 seconds\n"))
write("ips/App.wakeups_resource-2024-05-06-101112.ips", ips(
    header("142", "App", app_name="App"),
    "Date/Time:        2024-05-06 10:11:12.000 +0200\nEvent:            wakeups\nWakeups:          45001 wakeups over the last 300 seconds (150 wakeups per second average), exceeding limit of 150 wakeups per second over 300 seconds\n"))
write("ips/Stacks-2024-05-06-101112.ips", ips(
    header("288", "Stacks"),
    {"crashReporterKey": "0123456789abcdef0123456789abcdef01234567", "kernel": "Darwin Kernel Version 23.4.0", "product": "iPhone14,5",
     "build": "iPhone OS 17.4.1 (21E236)", "reason": "Stackshot requested by user", "frontmostPids": [4242],
     "processByPid": {"4242": {"procname": "App", "pid": 4242}, "34": {"procname": "SpringBoard", "pid": 34}}}))
write("ips/panic-full-2024-05-06-101112.ips", ips(
    header("210", "panic-full"),
    {"build": "iPhone OS 17.4.1 (21E236)", "product": "iPhone14,5", "kernel": "Darwin Kernel Version 23.4.0",
     "incident": "9A8B7C6D-5E4F-4A3B-9C2D-1E0F9A8B7C6D", "panicString": "panic(cpu 1 caller 0xfffffff0): watchdog timeout: no checkins from watchdogd in 180 seconds"}))
write("ips/unknown-bugtype.ips", ips(header("4242", "Unknown"), {"something": 1}))

# ---------------------------------------------------------------- KSCrash JSON
# The same crash as ../symbols/crashes (the App of ../symbols/arm64-dwarf4/App.dSYM, loaded at
# 0x104a28000), so a converted report symbolicates like the Apple ones.
APP_BASE, DYLD_BASE, KERNEL_BASE = 0x104A28000, 0x1EA3B0000, 0x1D3E2C000
APP_PATH = "/private/var/containers/Bundle/Application/0C1A7D2E-9B3F-4E5A-8C6D-7F8E9A0B1C2D/App.app/App"
images = [
    {"image_addr": APP_BASE, "image_vmaddr": 0x100000000, "image_size": 32768, "name": APP_PATH,
     "uuid": "4C4C440B-5555-3144-A184-68D7AACD7C75", "cpu_type": 16777228, "cpu_subtype": 0, "major_version": 0, "minor_version": 0, "revision_version": 0},
    {"image_addr": DYLD_BASE, "image_vmaddr": 0x180000000, "image_size": 393216, "name": "/usr/lib/dyld",
     "uuid": "0C2E5A4B-1D6F-3E7A-8B9C-1A2B3C4D5E6F", "cpu_type": 16777228, "cpu_subtype": 2},
    {"image_addr": KERNEL_BASE, "image_vmaddr": 0x1d3e2c000, "image_size": 262144, "name": "/usr/lib/system/libsystem_kernel.dylib",
     "uuid": "6D4A5B8E-7C3F-3B2A-9E1D-0A1B2C3D4E5F", "cpu_type": 16777228, "cpu_subtype": 2},
]


def frame(base, offset, name, symbol=None):
    entry = {"instruction_addr": base + offset, "object_addr": base, "object_name": name}
    if symbol:
        entry["symbol_addr"] = base + offset - 8
        entry["symbol_name"] = symbol
    return entry


threads = [
    {"index": 0, "crashed": True, "current_thread": False, "dispatch_queue": "com.apple.main-thread",
     "backtrace": {"skipped": 0, "contents": [frame(APP_BASE, 16568, "App"), frame(APP_BASE, 16632, "App"),
                                              frame(APP_BASE, 16440, "App"), frame(DYLD_BASE, 28360, "dyld", "start")]},
     "registers": {"basic": {"pc": APP_BASE + 16568, "lr": APP_BASE + 16632, "sp": 0x16f5e3a40}}},
    {"index": 1, "crashed": False, "current_thread": True, "name": "worker",
     "backtrace": {"skipped": 0, "contents": [frame(KERNEL_BASE, 6960, "libsystem_kernel.dylib", "__psynch_cvwait"),
                                              frame(APP_BASE, 17008, "App"), frame(APP_BASE, 16504, "App"),
                                              frame(DYLD_BASE, 28360, "dyld", "start")]}},
]
error = {"type": "mach", "address": 0,
         "mach": {"exception": 1, "exception_name": "EXC_BAD_ACCESS", "code": 1, "code_name": "KERN_INVALID_ADDRESS", "subcode": 0},
         "signal": {"signal": 11, "name": "SIGSEGV", "code": 0, "code_name": "SEGV_NOOP"}}
system = {"system_name": "iOS", "system_version": "17.4.1", "machine": "iPhone14,5", "model": "D16AP", "kernel_version": "Darwin Kernel Version 23.4.0",
          "os_version": "21E236", "jailbroken": False, "boot_time": "2024-05-01T08:00:00Z", "app_start_time": "2024-05-06T08:11:02Z",
          "CFBundleExecutablePath": APP_PATH, "CFBundleExecutable": "App", "CFBundleIdentifier": "com.example.fixture",
          "CFBundleName": "App", "CFBundleVersion": "42", "CFBundleShortVersionString": "1.2", "app_uuid": "4C4C440B-5555-3144-A184-68D7AACD7C75",
          "cpu_arch": "arm64", "cpu_type": 16777228, "cpu_subtype": 0, "binary_cpu_type": 16777228, "binary_cpu_subtype": 0,
          "process_name": "App", "process_id": 4242, "parent_process_id": 1, "device_app_hash": "0123456789abcdef", "build_type": "test",
          "memory": {"size": 6442450944, "usable": 5000000000, "free": 200000000}}


def kscrash(version, timestamp, with_images=True, report_type="standard", minimal=False, extra_report=None):
    report = {"version": version, "id": "5E6F7A8B-9C0D-4E1F-A2B3-C4D5E6F7A8B9", "process_name": "App", "timestamp": timestamp, "type": report_type}
    report.update(extra_report or {})
    document = {"report": report, "system": system, "process": {}, "user": {"tester": "ann@example.com"}}
    if minimal:
        document["crash"] = {"error": error, "crashed_thread": threads[0]}
    else:
        document["crash"] = {"error": error, "threads": threads, "diagnosis": "Attempted to dereference null pointer."}
    if with_images:
        document["binary_images"] = images
    return json.dumps(document, indent=4, sort_keys=True)


write("kscrash/kscrash-2.0.json", kscrash({"major": 2, "minor": 0}, "2024-05-06T08:11:12Z"))
write("kscrash/kscrash-3.0.0-seconds.json", kscrash("3.0.0", 1714983072))
write("kscrash/kscrash-3.4.0-microseconds.json", kscrash("3.4.0", 1714983072123456))
write("kscrash/kscrash-3.4.0-no-images.json", kscrash("3.4.0", 1714983072123456, with_images=False, report_type="custom"))
write("kscrash/kscrash-3.1.0-minimal.json", kscrash("3.1.0", "2024-05-06T08:11:12Z", with_images=False, report_type="minimal", minimal=True))
write("kscrash/sentrycrash-3.2.0.json", kscrash("3.2.0", 1714983072, extra_report={"run_id": "A1B2C3D4"}))
write("kscrash/kscrash-4.0.0.json", kscrash("4.0.0", 1714983072))

# ---------------------------------------------------------------- HockeySDK upload

with open(os.path.join(OUT, "..", "symbols", "crashes", "App-legacy.crash"), encoding="utf-8") as handle:
    log = handle.read()
uuids = '<uuid type="app" arch="arm64">4c4c440b55553144a18468d7aacd7c75</uuid>'
hockey = ("<crashes><crash><applicationname>App</applicationname><uuids>" + uuids + "</uuids>"
          "<bundleidentifier>com.example.fixture</bundleidentifier><systemversion>17.4.1</systemversion>"
          "<platform>iPhone14,5</platform><senderversion>42</senderversion><versionstring>1.2</versionstring>"
          "<version>42</version><uuid>F20AD3C0-B208-4A9C-8B2E-A91FD387B59E</uuid><log><![CDATA[" + log + "]]></log>"
          "<userid></userid><username>Ann &amp; Bo</username><contact>ann@example.com</contact>"
          "<installstring>0C1A7D2E-0000-4E5A-8C6D-7F8E9A0B1C2D</installstring>"
          "<description><![CDATA[Tapped parse twice.]]></description></crash></crashes>")
write("hockeyapp/crash-upload.xml", hockey)

# ---------------------------------------------------------------- PLCrashReporter
# The magic and version byte, then a few protobuf fields (system info: OS version "17.4.1").
write("plcrash/App.plcrash", b"plcrash\x01" + bytes([0x0A, 0x0A, 0x10, 0x01, 0x1A, 0x06]) + b"17.4.1")

# ---------------------------------------------------------------- what openssl says, for the tests


def x509(pem):
    out = subprocess.run(["openssl", "x509", "-in", pem, "-noout", "-subject", "-enddate", "-serial", "-nameopt", "RFC2253"],
                         cwd=WORK, check=True, capture_output=True, text=True).stdout
    fields = dict(line.split("=", 1) for line in out.strip().splitlines())
    return {"subject": fields["subject"], "notAfter": fields["notAfter"], "serial": fields["serial"]}


write("expected.json", json.dumps({"device": x509("device.pem"), "deviceCA": x509("ca.pem"), "server": x509("server.pem"),
                                   "udid": UDID}, indent=2, sort_keys=True) + "\n")
