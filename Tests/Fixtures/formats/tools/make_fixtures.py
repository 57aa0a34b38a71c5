"""Builds every fixture under Tests/Fixtures/formats. Run through ../generate.sh."""
import base64
import datetime
import json
import os
import plistlib
import shutil
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(__file__))
import fxlib  # noqa: E402

OUT, WORK = sys.argv[1], sys.argv[2]
TEAM = "ABCDE12345"
APP_ID, WIDGET_ID = "com.example.beta", "com.example.beta.widget"
# Made-up device identifiers in both of Apple's forms (never real devices).
DEVICES = ["00008030-0000000000000A01", "00008101-0000000000000B02", "0000000000000000000000000000000000000c03"]


def run(*args, cwd=WORK, quiet=False):
    subprocess.run(list(args), cwd=cwd, check=True, stderr=subprocess.DEVNULL if quiet else None)


def out(*parts):
    path = os.path.join(OUT, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def utc(y, m, d):
    return datetime.datetime(y, m, d, tzinfo=datetime.timezone.utc)

# ---------------------------------------------------------------- signing identity

run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
    "-days", "36500", "-set_serial", "0x5EED1234ABCD",
    "-subj", f"/UID={TEAM}/CN=iPhone Distribution: Beta Fixtures ({TEAM})/OU={TEAM}/O=Beta Fixtures/C=US", quiet=True)
run("openssl", "x509", "-in", "cert.pem", "-outform", "DER", "-out", "cert.der")
cert_der = open(os.path.join(WORK, "cert.der"), "rb").read()
fingerprint = subprocess.run(["openssl", "x509", "-in", "cert.pem", "-noout", "-fingerprint", "-sha1"], cwd=WORK,
                             check=True, capture_output=True, text=True).stdout.strip().split("=", 1)[1]
not_after = subprocess.run(["openssl", "x509", "-in", "cert.pem", "-noout", "-enddate"], cwd=WORK,
                           check=True, capture_output=True, text=True).stdout.strip().split("=", 1)[1]

# ---------------------------------------------------------------- profiles

def profile(name, uuid, app_identifier, entitlements, devices=DEVICES, expires=utc(2099, 1, 1), extra=None):
    body = {
        "AppIDName": "Beta Fixtures",
        "ApplicationIdentifierPrefix": [TEAM],
        "CreationDate": utc(2024, 1, 1),
        "Platform": ["iOS"],
        "IsXcodeManaged": False,
        "DeveloperCertificates": [cert_der],
        "Entitlements": dict({"application-identifier": f"{TEAM}.{app_identifier}",
                              "com.apple.developer.team-identifier": TEAM}, **entitlements),
        "ExpirationDate": expires,
        "Name": name,
        "TeamIdentifier": [TEAM],
        "TeamName": "Beta Fixtures",
        "TimeToLive": 365,
        "UUID": uuid,
        "Version": 1,
    }
    if devices is not None:
        body["ProvisionedDevices"] = devices
    body.update(extra or {})
    return plistlib.dumps(body, fmt=plistlib.FMT_XML)


def sign_profile(plist_bytes, dest, ber=False):
    src = os.path.join(WORK, "profile.plist")
    write(src, plist_bytes)
    args = ["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", src,
            "-signer", "cert.pem", "-inkey", "key.pem", "-out", dest]
    if ber:
        args.insert(3, "-stream")  # streaming output uses BER indefinite lengths
    run(*args)
    return open(dest, "rb").read()

APP_GRANTS = {
    "get-task-allow": False,
    "keychain-access-groups": [f"{TEAM}.*", "com.apple.token"],
    "aps-environment": "production",
    "com.apple.security.application-groups": ["group.com.example.beta", "group.com.example.shared"],
    "com.apple.developer.associated-domains": "*",
    "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.beta"],
    "com.apple.developer.ubiquity-kvstore-identifier": f"{TEAM}.*",
}
WIDGET_GRANTS = {
    "get-task-allow": False,
    "keychain-access-groups": [f"{TEAM}.*"],
    "com.apple.security.application-groups": ["group.com.example.beta"],
}
app_profile = profile("Beta Ad Hoc", "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000001", APP_ID, APP_GRANTS)
app_profile_der = sign_profile(app_profile, out("profiles", "beta_adhoc.mobileprovision"))
sign_profile(app_profile, out("profiles", "beta_adhoc_ber.mobileprovision"), ber=True)
widget_profile_der = sign_profile(
    profile("Beta Widget Ad Hoc (wildcard)", "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000002", "*", WIDGET_GRANTS),
    out("profiles", "widget_adhoc.mobileprovision"))
sign_profile(profile("Beta Development", "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000003", APP_ID,
                     dict(APP_GRANTS, **{"get-task-allow": True, "aps-environment": "development"})),
             out("profiles", "beta_development.mobileprovision"))
sign_profile(profile("Beta Ad Hoc (expired)", "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000004", APP_ID, APP_GRANTS,
                     expires=utc(2020, 1, 1)), out("profiles", "beta_expired.mobileprovision"))
sign_profile(profile("Other App Ad Hoc", "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000005", "com.example.other", APP_GRANTS),
             out("profiles", "other_app_adhoc.mobileprovision"))
sign_profile(profile("Beta Enterprise", "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000006", APP_ID, APP_GRANTS, devices=None,
                     extra={"ProvisionsAllDevices": True}), out("profiles", "beta_enterprise.mobileprovision"))

with open(out("profiles", "expected.json"), "w") as f:
    json.dump({"certificateSHA1": fingerprint, "certificateSerial": "5EED1234ABCD", "certificateNotAfter": not_after,
               "certificateCN": f"iPhone Distribution: Beta Fixtures ({TEAM})"}, f, indent=2, sort_keys=True)
    f.write("\n")

# ---------------------------------------------------------------- executables and dSYMs

SRC = os.path.join(OUT, "src")


THIN_SLICES = {}
# How each executable was built, so a bundle can sign it again with its Info.plist and resources sealed.
SIGNING = {}


def build(source, name, archs, identifier, entitlements, der_form):
    slices = []
    for arch in archs:
        obj = f"{name}_{arch}.o"
        run("clang", "-target", f"{arch}-apple-ios15.0", "-g", "-O1", f"-fdebug-prefix-map={WORK}=/fixtures",
            "-c", os.path.join(SRC, source), "-o", obj)
        os.utime(os.path.join(WORK, obj), (0, 0))
        exe = f"{name}_{arch}"
        run("ld64.lld-19", "-arch", arch, "-platform_version", "ios", "15.0", "15.0", "-adhoc_codesign",
            "-headerpad", "0x400", "-o", exe, obj)
        if arch == "arm64e":
            fxlib.set_cpu_subtype(os.path.join(WORK, exe), 0x80000002)
        fxlib.codesign(os.path.join(WORK, exe), identifier, TEAM, entitlements, der_form)
        slices.append(exe)
    THIN_SLICES[name] = [os.path.join(WORK, s) for s in slices]
    SIGNING[os.path.join(WORK, name)] = (identifier, entitlements, der_form, name)
    if len(slices) > 1:
        fxlib.fat([os.path.join(WORK, s) for s in slices], os.path.join(WORK, name))
    else:
        shutil.copy(os.path.join(WORK, slices[0]), os.path.join(WORK, name))
    return os.path.join(WORK, name)


def dsym(name, bundle_name, root="dsyms"):
    """dsymutil needs Apple's lipo for fat input, so link each slice's dSYM and join the DWARF files ourselves."""
    dest = os.path.join(WORK, root, bundle_name + ".dSYM")
    thin = THIN_SLICES[name]
    for index, exe in enumerate(thin):
        run("dsymutil-19", exe, "-o", dest if index == 0 else dest + f".{index}")
    exe_name = os.path.basename(name)
    dwarf = os.path.join(dest, "Contents", "Resources", "DWARF")
    produced = [os.path.join(dwarf, os.path.basename(thin[0]))] + \
               [os.path.join(dest + f".{i}", "Contents", "Resources", "DWARF", os.path.basename(t)) for i, t in enumerate(thin) if i]
    if len(produced) > 1:
        fxlib.fat(produced, os.path.join(dwarf, exe_name))
    else:
        os.rename(produced[0], os.path.join(dwarf, exe_name))
    for leftover in os.listdir(dwarf):
        if leftover != exe_name:
            os.remove(os.path.join(dwarf, leftover))
    for i in range(1, len(thin)):
        shutil.rmtree(dest + f".{i}")
    # Relocation maps name the thin slice files; they are optional, so drop them.
    shutil.rmtree(os.path.join(dest, "Contents", "Resources", "Relocations"), ignore_errors=True)
    info_path = os.path.join(dest, "Contents", "Info.plist")
    info = plistlib.load(open(info_path, "rb"))
    info["CFBundleIdentifier"] = "com.apple.xcode.dsym." + bundle_name
    write(info_path, plistlib.dumps(info, fmt=plistlib.FMT_XML))
    return dest


def uuids(path):
    text = subprocess.run(["llvm-dwarfdump-19", "--uuid", path], check=True, capture_output=True, text=True).stdout
    return {line.split()[2].strip("()"): line.split()[1] for line in text.splitlines() if line.startswith("UUID:")}


APP_SIGNED = {
    "application-identifier": f"{TEAM}.{APP_ID}",
    "com.apple.developer.team-identifier": TEAM,
    "get-task-allow": False,
    "keychain-access-groups": [f"{TEAM}.{APP_ID}"],
    "aps-environment": "production",
    "com.apple.security.application-groups": ["group.com.example.beta"],
    "com.apple.developer.associated-domains": ["applinks:beta.example.com"],
    "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.beta"],
}
WIDGET_SIGNED = {
    "application-identifier": f"{TEAM}.{WIDGET_ID}",
    "com.apple.developer.team-identifier": TEAM,
    "get-task-allow": False,
    "com.apple.security.application-groups": ["group.com.example.beta"],
}
BAD_SIGNED = dict(APP_SIGNED, **{
    "get-task-allow": True,
    "aps-environment": "development",
    "com.apple.security.application-groups": ["group.com.example.beta", "group.com.other"],
    "keychain-access-groups": ["ZZZZZ99999.shared"],
    "com.apple.developer.healthkit": True,
})

app_exe = build("beta_app.c", "Beta", ["arm64", "arm64e"], APP_ID, APP_SIGNED, "apple")
widget_exe = build("beta_widget.c", "BetaWidget", ["arm64"], WIDGET_ID, WIDGET_SIGNED, "bare")
app_dsym = dsym("Beta", "Beta.app")
widget_dsym = dsym("BetaWidget", "BetaWidget.appex")
os.makedirs(os.path.join(WORK, "bad"), exist_ok=True)
bad_exe = build("beta_app.c", "bad/Beta", ["arm64"], APP_ID, BAD_SIGNED, "apple")
os.makedirs(os.path.join(WORK, "rebuilt"), exist_ok=True)
rebuilt_exe = build("beta_app_rebuilt.c", "rebuilt/Beta", ["arm64", "arm64e"], APP_ID, APP_SIGNED, "apple")
rebuilt_dsym_root = os.path.join(WORK, "rebuilt-dsym")
dsym("rebuilt/Beta", "Beta.app", root="rebuilt-dsym")

# ---------------------------------------------------------------- icons

def icon_pixel(x, y):
    # Opaque body, a translucent ring and transparent corners, so un-premultiplying matters.
    dx, dy = x - 59.5, y - 59.5
    d2 = dx * dx + dy * dy
    a = 255 if d2 < 45 * 45 else (128 if d2 < 55 * 55 else 0)
    return ((x * 2) & 255, (y * 2) & 255, 200, a)


icon_png, _ = fxlib.cgbi_png(120, 120, icon_pixel, idat_chunk=4096)


def small_pixel(x, y):
    alphas = [0, 1, 37, 128, 200, 254, 255]
    return ((x * 40 + 3) & 255, (y * 60 + 7) & 255, (x * y * 13) & 255, alphas[(x + y) % len(alphas)])


small_png, small_expected = fxlib.cgbi_png(7, 5, small_pixel, idat_chunk=20)
write(out("icons", "cgbi_7x5_multiIDAT.png"), small_png)
write(out("icons", "cgbi_7x5.expected.rgba"), small_expected)

# ---------------------------------------------------------------- bundles

def sign_bundle(bundle, exe, name, nested=None):
    """Signs `bundle` as codesign does: CodeResources over its files (nested code by CDHash), then
    every slice of its executable with Info.plist and CodeResources sealed and a CMS signature by
    the fixture certificate; the slices are joined again into the bundle's (fat) executable."""
    identifier, entitlements, der_form, built = SIGNING[exe]
    nested = nested or {}
    resources = fxlib.code_resources(bundle, name, {rel: fxlib.cdhash(os.path.join(bundle, rel, exe_name))
                                                    for rel, exe_name in nested.items()})
    os.makedirs(os.path.join(bundle, "_CodeSignature"), exist_ok=True)
    write(os.path.join(bundle, "_CodeSignature", "CodeResources"), resources)
    info = open(os.path.join(bundle, "Info.plist"), "rb").read()
    slices = []
    for thin in THIN_SLICES[built]:
        copy = thin + ".bundle-signed"
        shutil.copy(thin, copy)
        fxlib.codesign(copy, identifier, TEAM, entitlements, der_form, info_plist=info, resources=resources,
                       signer=(os.path.join(WORK, "cert.pem"), os.path.join(WORK, "key.pem"), WORK))
        slices.append(copy)
    target = os.path.join(bundle, name)
    if len(slices) > 1:
        fxlib.fat(slices, target)
    else:
        shutil.copy(slices[0], target)
    os.chmod(target, 0o755)


def bench_assets(folder, size_mb):
    """bench/resign's assets: 8 MB files, half random (images, audio: already compressed) and half
    text (json, strings: compressible), `size_mb` in all."""
    os.makedirs(folder)
    rng = __import__("random").Random(7)
    words = [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(2000)]
    text = bytearray()
    while len(text) < 8 << 20:
        text += b" ".join(rng.choice(words) for _ in range(64)) + b"\n"
    for index in range((size_mb + 7) // 8):
        if index % 2 == 0:
            write(os.path.join(folder, f"blob{index:04d}.bin"), os.urandom(8 << 20))
        else:
            write(os.path.join(folder, f"text{index:04d}.json"), b"%d\n" % index + bytes(text[:(8 << 20) - 8]))


def app_bundle(root, exe, widget=True, profile_bytes=app_profile_der, assets_mb=0):
    app = os.path.join(root, "Beta.app")
    os.makedirs(app)
    shutil.copy(exe, os.path.join(app, "Beta"))
    info = {
        "CFBundleIdentifier": APP_ID, "CFBundleExecutable": "Beta", "CFBundleName": "Beta",
        "CFBundleDisplayName": "Beta Fixtures", "CFBundleShortVersionString": "1.2.3", "CFBundleVersion": "45",
        "CFBundlePackageType": "APPL", "MinimumOSVersion": "15.0", "UIDeviceFamily": [1, 2],
        "CFBundleSupportedPlatforms": ["iPhoneOS"],
        "CFBundleIcons": {"CFBundlePrimaryIcon": {"CFBundleIconFiles": ["AppIcon60x60"], "CFBundleIconName": "AppIcon"}},
    }
    write(os.path.join(app, "Info.plist"), plistlib.dumps(info, fmt=plistlib.FMT_BINARY))
    write(os.path.join(app, "embedded.mobileprovision"), profile_bytes)
    write(os.path.join(app, "AppIcon60x60@2x.png"), icon_png)
    if assets_mb:
        bench_assets(os.path.join(app, "Assets"), assets_mb)
    if widget:
        appex = os.path.join(app, "PlugIns", "BetaWidget.appex")
        os.makedirs(appex)
        shutil.copy(widget_exe, os.path.join(appex, "BetaWidget"))
        winfo = {
            "CFBundleIdentifier": WIDGET_ID, "CFBundleExecutable": "BetaWidget", "CFBundleName": "BetaWidget",
            "CFBundleShortVersionString": "1.2.3", "CFBundleVersion": "45", "CFBundlePackageType": "XPC!",
            "MinimumOSVersion": "15.0",
            "NSExtension": {"NSExtensionPointIdentifier": "com.apple.widgetkit-extension"},
        }
        write(os.path.join(appex, "Info.plist"), plistlib.dumps(winfo, fmt=plistlib.FMT_XML))
        write(os.path.join(appex, "embedded.mobileprovision"), widget_profile_der)
        sign_bundle(appex, widget_exe, "BetaWidget")
    sign_bundle(app, exe, "Beta", nested={"PlugIns/BetaWidget.appex": "BetaWidget"} if widget else None)
    return app


def ipa(name, exe, **kwargs):
    root = os.path.join(WORK, "payload-" + name)
    os.makedirs(root)
    app_bundle(root, exe, **kwargs)
    write(out("app", name), fxlib.zip_bytes(fxlib.tree_entries(root, "Payload/")))
    return root


good_root = ipa("Beta.ipa", app_exe)
ipa("BetaBadEntitlements.ipa", bad_exe, widget=False)

# An xcarchive, zipped the way people mail them: Beta.xcarchive/ at the top.
archive = os.path.join(WORK, "Beta.xcarchive")
os.makedirs(os.path.join(archive, "Products", "Applications"))
shutil.copytree(os.path.join(good_root, "Beta.app"), os.path.join(archive, "Products", "Applications", "Beta.app"))
shutil.copytree(app_dsym, os.path.join(archive, "dSYMs", "Beta.app.dSYM"))
shutil.copytree(widget_dsym, os.path.join(archive, "dSYMs", "BetaWidget.appex.dSYM"))
write(os.path.join(archive, "Info.plist"), plistlib.dumps({
    "ApplicationProperties": {"ApplicationPath": "Applications/Beta.app", "CFBundleIdentifier": APP_ID,
                              "CFBundleShortVersionString": "1.2.3", "CFBundleVersion": "45"},
    "ArchiveVersion": 2, "CreationDate": utc(2024, 6, 1), "Name": "Beta", "SchemeName": "Beta"}, fmt=plistlib.FMT_XML))
write(out("app", "Beta.xcarchive.zip"), fxlib.zip_bytes(fxlib.tree_entries(archive, "Beta.xcarchive/")))
write(out("app", "Beta.app.dSYM.zip"), fxlib.zip_bytes(fxlib.tree_entries(app_dsym, "Beta.app.dSYM/")))
write(out("app", "BetaWidget.appex.dSYM.zip"), fxlib.zip_bytes(fxlib.tree_entries(widget_dsym, "BetaWidget.appex.dSYM/")))
write(out("app", "Beta-rebuilt.app.dSYM.zip"),
      fxlib.zip_bytes(fxlib.tree_entries(os.path.join(rebuilt_dsym_root, "Beta.app.dSYM"), "Beta.app.dSYM/")))

with open(out("app", "expected.json"), "w") as f:
    json.dump({"Beta": uuids(app_exe), "BetaWidget": uuids(widget_exe), "BetaBad": uuids(bad_exe),
               "BetaRebuilt": uuids(rebuilt_exe), "BetaDSYM": uuids(app_dsym)}, f, indent=2, sort_keys=True)
    f.write("\n")

# ---------------------------------------------------------------- hostile and edge-case zips

write(out("zip", "mixed.zip"), fxlib.zip_bytes([
    {"name": "dir/", "data": b"", "method": 0},
    {"name": "dir/stored.txt", "data": b"stored bytes\n", "method": 0},
    {"name": "dir/deflated.txt", "data": b"deflated " * 5000, "method": 8},
    {"name": "exec", "data": b"#!/bin/sh\n", "method": 0, "mode": 0o100755},
    {"name": "link", "data": b"dir/stored.txt", "method": 0, "mode": 0o120777},
], comment=b"a trailing archive comment"))
write(out("zip", "zip64.zip"), fxlib.zip_bytes([
    {"name": "a.txt", "data": b"zip64 stored\n", "method": 0},
    {"name": "b.bin", "data": bytes(range(256)) * 64, "method": 8},
], force_zip64=True))
write(out("zip", "bomb_ratio.zip"), fxlib.zip_bytes([{"name": "zeros.bin", "data": bytes(8 << 20)}]))
one = zlib.compressobj(9, zlib.DEFLATED, -15)
shared = one.compress(bytes(1 << 20)) + one.flush()
first = fxlib.zip_bytes([{"name": "k0", "raw": shared, "data": bytes(1 << 20)}])
header_len = 30 + 2
# Three central entries pointing at one local file: the overlapping-entry bomb.
write(out("zip", "bomb_overlap.zip"), fxlib.zip_bytes([
    {"name": "k0", "raw": shared, "data": bytes(1 << 20)},
    {"name": "k1", "raw": shared, "data": bytes(1 << 20), "local_offset": 0},
    {"name": "k2", "raw": shared, "data": bytes(1 << 20), "local_offset": 0},
]))
lying = zlib.compressobj(9, zlib.DEFLATED, -15)
lying_raw = lying.compress(bytes(4 << 20)) + lying.flush()
write(out("zip", "lying_size.zip"), fxlib.zip_bytes([{"name": "small.txt", "raw": lying_raw, "usize": 1000,
                                                       "crc": zlib.crc32(bytes(1000)) & 0xFFFFFFFF}]))
write(out("zip", "traversal.zip"), fxlib.zip_bytes([
    {"name": "Payload/Beta.app/Info.plist", "data": b"x"},
    {"name": "Payload/../../evil.sh", "data": b"echo owned\n"}]))
write(out("zip", "absolute.zip"), fxlib.zip_bytes([{"name": "/etc/cron.d/evil", "data": b"x"}]))
write(out("zip", "bad_crc.zip"), fxlib.zip_bytes([{"name": "data.txt", "data": b"hello crc\n" * 10, "crc": 0xDEADBEEF}]))
write(out("zip", "bzip2_method.zip"), fxlib.zip_bytes([{"name": "data.bz2", "data": b"BZh9", "method": 12, "raw": b"BZh9"}]))
# bench/resign (only when asked): the Beta app again with large assets inside it, signed, left in
# WORK/payload-bench/Beta.app for the bench to zip. Never part of the committed fixtures.
if os.environ.get("BETACTL_BENCH_ASSETS_MB"):
    bench_root = os.path.join(WORK, "payload-bench")
    os.makedirs(bench_root)
    app_bundle(bench_root, app_exe, assets_mb=int(os.environ["BETACTL_BENCH_ASSETS_MB"]))
print("fixtures written to", OUT)
