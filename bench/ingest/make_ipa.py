"""Builds a large ipa for bench/ingest: the generated Beta app (valid profile, signed executables)
plus files to reach the requested size, half incompressible and half compressible like real apps.
They go in the ipa's Symbols/ folder (beside Payload/, where Xcode puts symbol files), because files
added inside the signed app would break its CodeResources seal and `release` would refuse it.
Also writes the app's dSYM zip so `betactl release` accepts the build."""
import os
import random
import sys
import zipfile

source, target, dsym_target, size_mb = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
app_prefix = "Beta.xcarchive/Products/Applications/"
dsym_prefix = "Beta.xcarchive/dSYMs/"
rng = random.Random(7)
with zipfile.ZipFile(source) as archive, \
        zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as ipa, \
        zipfile.ZipFile(dsym_target, "w", zipfile.ZIP_DEFLATED) as dsyms:
    for info in archive.infolist():
        if info.filename.startswith(app_prefix) and not info.is_dir():
            out = zipfile.ZipInfo("Payload/" + info.filename[len(app_prefix):], info.date_time)
            out.external_attr = info.external_attr
            out.compress_type = zipfile.ZIP_DEFLATED
            ipa.writestr(out, archive.read(info))
        elif info.filename.startswith(dsym_prefix) and not info.is_dir():
            dsyms.writestr(info.filename[len(dsym_prefix):], archive.read(info))
    words = [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(2000)]
    remaining = size_mb << 20
    index = 0
    while remaining > 0:
        chunk = min(remaining, 8 << 20)
        if index % 2 == 0:
            data = os.urandom(chunk)  # images, audio: already compressed
            name = f"Symbols/blob{index:04d}.bin"
        else:
            text = bytearray()
            while len(text) < chunk:
                text += b" ".join(rng.choice(words) for _ in range(64)) + b"\n"
            data = bytes(text[:chunk])  # json, nibs, strings: compressible
            name = f"Symbols/text{index:04d}.json"
        ipa.writestr(name, data)
        remaining -= chunk
        index += 1
