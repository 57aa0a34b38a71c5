#!/usr/bin/env python3
"""Makes libFuzzer seed corpora from the repository's fixtures and ../shared/fixtures.

Usage: seeds.py REPO_ROOT OUT_DIR

Every fixture is sorted by content into the targets that read it; containers are opened so that
each target also gets the pieces it parses on its own: zip entries, the code signature, DWARF
sections and symbol names of Mach-O files, the plist and certificates inside profiles. Every file
up to 128 KiB also seeds the recognizer, and the inspect fixtures seed the KSCrash, .ips,
enrolment, .mobileconfig and HockeySDK targets.
Seeds are named by their SHA-1, so the same bytes from two places count once.
"""
import hashlib
import io
import os
import plistlib
import struct
import sys
import zipfile

from nesting_seeds import emit_nesting_seeds

MAX_SEED = 1 << 20
DWARF_ORDER = ["debug_info", "debug_abbrev", "debug_line", "debug_str", "debug_line_str",
               "debug_str_offs", "debug_addr", "debug_ranges", "debug_rnglists"]
counts = {}


def emit(out, target, data):
    if not data or len(data) > MAX_SEED:
        return
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as handle:
            handle.write(data)
        counts[target] = counts.get(target, 0) + 1


def macho_slices(data):
    if len(data) < 8:
        return []
    magic = struct.unpack(">I", data[:4])[0]
    if magic in (0xCAFEBABE, 0xCAFEBABF):
        count = struct.unpack(">I", data[4:8])[0]
        slices = []
        for index in range(min(count, 16)):
            if magic == 0xCAFEBABE:
                entry = data[8 + index * 20: 28 + index * 20]
                if len(entry) < 20:
                    break
                _, _, offset, size, _ = struct.unpack(">iiIII", entry)
            else:
                entry = data[8 + index * 32: 40 + index * 32]
                if len(entry) < 32:
                    break
                _, _, offset, size, _, _ = struct.unpack(">iiQQII", entry)
            slices.append(data[offset: offset + size])
        return slices
    if struct.unpack("<I", data[:4])[0] in (0xFEEDFACE, 0xFEEDFACF):
        return [data]
    return []


def read_image(image):
    """Sections (by name), the symbol table location and the code signature location of a thin image."""
    is64 = struct.unpack("<I", image[:4])[0] == 0xFEEDFACF
    ncmds, sizeofcmds = struct.unpack("<II", image[16:24])
    position = 32 if is64 else 28
    sections, symtab, signature = {}, None, None
    for _ in range(ncmds):
        if position + 8 > len(image):
            break
        cmd, size = struct.unpack("<II", image[position: position + 8])
        if size < 8:
            break
        body = image[position: position + size]
        if cmd in (0x19, 0x1):
            wide = cmd == 0x19
            nsects = struct.unpack("<I", body[64:68] if wide else body[48:52])[0]
            at = 72 if wide else 56
            for _ in range(nsects):
                name = body[at: at + 16].rstrip(b"\0").decode("latin-1")
                if wide:
                    _, sect_size, offset = struct.unpack("<QQI", body[at + 32: at + 52])
                    at += 80
                else:
                    _, sect_size, offset = struct.unpack("<III", body[at + 32: at + 44])
                    at += 68
                if offset and name not in sections:
                    sections[name] = image[offset: offset + sect_size]
        elif cmd == 0x2:
            symtab = struct.unpack("<IIII", body[8:24])
        elif cmd == 0x1D:
            signature = struct.unpack("<II", body[8:16])
        position += size
    return is64, sections, symtab, signature


def from_macho(out, data, whole_file=True):
    slices = macho_slices(data)
    if not slices:
        return False
    if whole_file:
        emit(out, "macho", data)
        emit(out, "index", data)
    for image in slices:
        try:
            is64, sections, symtab, signature = read_image(image)
        except (struct.error, IndexError):
            continue
        container = b"".join(struct.pack("<I", len(sections.get("__" + name, b""))) + sections.get("__" + name, b"")
                             for name in DWARF_ORDER)
        if sections.get("__debug_info"):
            emit(out, "dwarf", container)
        if signature:
            offset, size = signature
            blob = image[offset: offset + size]
            emit(out, "codesign", blob)
            from_superblob(out, blob)
        if symtab:
            symoff, nsyms, stroff, strsize = symtab
            strings = image[stroff: stroff + strsize]
            entry = 16 if is64 else 12
            names = set()
            for index in range(min(nsyms, 4000)):
                name_offset = struct.unpack("<I", image[symoff + index * entry: symoff + index * entry + 4])[0]
                end = strings.find(b"\0", name_offset)
                if end > name_offset:
                    names.add(strings[name_offset:end])
            mangled = sorted(n for n in names if n.startswith((b"_$s", b"$s", b"_Z", b"__Z", b"_T")))
            for name in (mangled + sorted(names))[:300]:
                emit(out, "demangle", name)
    return True


def from_superblob(out, blob):
    if len(blob) < 12 or struct.unpack(">I", blob[:4])[0] != 0xFADE0CC0:
        return
    count = struct.unpack(">I", blob[8:12])[0]
    for index in range(min(count, 64)):
        slot_entry = blob[12 + index * 8: 20 + index * 8]
        if len(slot_entry) < 8:
            break
        _, offset = struct.unpack(">II", slot_entry)
        header = blob[offset: offset + 8]
        if len(header) < 8:
            continue
        magic, length = struct.unpack(">II", header)
        payload = blob[offset + 8: offset + length]
        if magic == 0xFADE7171:
            emit(out, "plist", payload)
        elif magic == 0xFADE7172:
            emit(out, "der", payload)


def from_plist(out, data):
    emit(out, "plist", data)
    try:
        value = plistlib.loads(data)
    except Exception:
        return
    if isinstance(value, dict):
        if "Device UDIDs" in value:
            emit(out, "devices-plist", data)
        for udid in (value.get("ProvisionedDevices") or [])[:50] if isinstance(value.get("ProvisionedDevices"), list) else []:
            if isinstance(udid, str):
                emit(out, "udid", udid.encode())
        for blob in value.get("DeveloperCertificates", []) if isinstance(value.get("DeveloperCertificates"), list) else []:
            if isinstance(blob, bytes):
                emit(out, "der", blob)
        if isinstance(value.get("DER-Encoded-Profile"), bytes):
            emit(out, "der", value["DER-Encoded-Profile"])
        # The same document in the other form, so both readers start from it.
        try:
            emit(out, "plist", plistlib.dumps(value, fmt=plistlib.FMT_BINARY))
        except Exception:
            pass


def inspect_targets(out, data):
    """Seeds for the recognizer and the parsers of the kinds it names (KSCrash, .ips, enrolment
    replies, .mobileconfig, HockeySDK uploads)."""
    if len(data) <= 131072:
        emit(out, "recognize", data)
    head = data[:65536]
    if head.lstrip()[:1] == b"{":
        if b'"bug_type"' in head[:4096] or b'"largestProcess"' in head:
            emit(out, "jetsam", data)
        if b'"report"' in head and (b'"crash"' in data or b'"binary_images"' in head):
            emit(out, "kscrash", data)
    if b"<crashes" in head[:512]:
        emit(out, "hockeyapp", data)
    if b"<key>PayloadType</key>" in data or b"PayloadType" in head[:64] and data.startswith(b"bplist"):
        emit(out, "mobileconfig", data)
    if data[:1] == b"\x30" and b"<key>UDID</key>" in data:
        emit(out, "enrollment", data)
        # The intake target's first byte picks how the reply's challenge stands (valid, another
        # tester's, expired, used, unknown) and, with its high bit, a strict server: one seed per case.
        for scenario in range(5):
            emit(out, "enrollment-intake", bytes([scenario]) + data)
            emit(out, "enrollment-intake", bytes([0x80 | scenario]) + data)


def from_bytes(out, name, data, depth=0):
    lower = name.lower()
    inspect_targets(out, data)
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        emit(out, "zip", data)
        if depth < 2:
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as archive:
                    for info in archive.infolist()[:400]:
                        if info.file_size <= 4 * MAX_SEED and not info.is_dir():
                            try:
                                from_bytes(out, info.filename, archive.read(info), depth + 1)
                            except Exception:
                                pass
            except zipfile.BadZipFile:
                pass
        return
    if lower.endswith((".ipa", ".zip")):
        emit(out, "zip", data)  # not a zip at all: a good negative seed
        return
    if from_macho(out, data):
        return
    if data.startswith(b"\x89PNG"):
        emit(out, "png", data)
        return
    if lower.endswith(".mobileprovision") or (data[:1] == b"\x30" and b"<plist" in data):
        emit(out, "profile", data)
        emit(out, "der", data)
        start, end = data.find(b"<?xml"), data.find(b"</plist>")
        if 0 <= start < end:
            from_plist(out, data[start: end + len(b"</plist>")])
        return
    if data.startswith(b"bplist") or data.lstrip()[:5] in (b"<?xml", b"<plis", b"<!DOC"):
        from_plist(out, data)
        if lower.endswith(".deviceids"):
            emit(out, "devices-plist", data)
        return
    if "/crash/" in name or lower.endswith((".crash", ".ips")):
        emit(out, "crash", data)
        emit(out, "crash-render", data)
        return
    if ("/devices/" in name and lower.endswith(".txt")) or (lower.endswith(".tsv") and b"Device ID" in data):
        emit(out, "devices-tsv", data)
        for line in data.splitlines()[:50]:
            emit(out, "udid", line.split(b"\t")[0])


def walk(out, folder):
    for directory, _, files in sorted(os.walk(folder)):
        for file in sorted(files):
            path = os.path.join(directory, file)
            if os.path.islink(path) or os.path.getsize(path) > 16 * MAX_SEED:
                continue
            with open(path, "rb") as handle:
                from_bytes(out, path, handle.read())


def main():
    root, out = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    walk(out, os.path.join(root, "Tests", "Fixtures"))
    shared = os.path.join(os.path.dirname(root), "shared", "fixtures")
    if os.path.isdir(shared):
        walk(out, shared)
    else:
        print(f"note: {shared} is absent; seeding from the repository's fixtures only", file=sys.stderr)
    # Hand-written seeds for inputs no fixture file holds (HTTP requests, chunked bodies).
    seeds = os.path.join(here, "Seeds")
    for target in sorted(os.listdir(seeds)) if os.path.isdir(seeds) else []:
        for file in sorted(os.listdir(os.path.join(seeds, target))):
            with open(os.path.join(seeds, target, file), "rb") as handle:
                emit(out, target, handle.read())
    # Inputs nested to each parser's limit, one level past it and far past it (issue 17).
    emit_nesting_seeds(root, lambda target, data: emit(out, target, data))
    for target in sorted(counts):
        print(f"{target}: {counts[target]} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
