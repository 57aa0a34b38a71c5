#!/usr/bin/env python3
"""Writes a large ipa for the upload tests: every entry of the given ipa (the generated Beta app:
valid profile, signed executables and sealed resources) plus incompressible files, stored, until
the file reaches the requested size in MB. They go in the ipa's Symbols/ folder, beside Payload/ as
Xcode puts symbol files when it exports with symbols, so the app's signature still holds and
betactl releases the ipa with the app's dSYMs.

Usage: make_big_ipa.py SOURCE.ipa TARGET.ipa SIZE_MB
"""
import os
import sys
import zipfile

source, target, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as ipa:
    for info in original.infolist():
        ipa.writestr(info, original.read(info))
    index = 0
    chunk = 8 << 20
    while os.path.getsize(target) < (size_mb << 20):
        info = zipfile.ZipInfo(f"Symbols/blob{index:04d}.symbols", (2024, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED
        ipa.writestr(info, os.urandom(chunk))
        index += 1
print(os.path.getsize(target))
