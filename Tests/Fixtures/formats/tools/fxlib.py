"""Helpers for generate.sh: a tiny zip writer, Apple DER entitlements, a code signer for thin
Mach-O files (ad hoc, or with a CMS signature by the fixture certificate through `openssl cms`),
CodeResources, and a CgBI PNG encoder. Standard library and the openssl command only."""
import hashlib
import os
import plistlib
import subprocess
import struct
import zlib

# ---------------------------------------------------------------- zip writer

def zip_bytes(entries, force_zip64=False, comment=b""):
    """entries: list of dicts name, data, method (0/8), mode (unix), crc, usize, csize, raw (override compressed bytes),
    local_offset (override for overlap bombs)."""
    out = bytearray()
    central = bytearray()
    for e in entries:
        name = e["name"].encode()
        data = e.get("data", b"")
        method = e.get("method", 8)
        if "raw" in e:
            comp = e["raw"]
        elif method == 8:
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            comp = c.compress(data) + c.flush()
        else:
            comp = data
        crc = e.get("crc", zlib.crc32(data) & 0xFFFFFFFF)
        usize = e.get("usize", len(data))
        csize = e.get("csize", len(comp))
        mode = e.get("mode", 0o100644 if not e["name"].endswith("/") else 0o40755)
        offset = e.get("local_offset", len(out))
        if "local_offset" not in e:
            if force_zip64:
                extra = struct.pack("<HHQQ", 1, 16, usize, csize)
                out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0x800, method, 0, 0x21, crc,
                                   0xFFFFFFFF, 0xFFFFFFFF, len(name), len(extra)) + name + extra
            else:
                out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, method, 0, 0x21, crc,
                                   csize, usize, len(name), 0) + name
            out += comp
        if force_zip64:
            cextra = struct.pack("<HHQQQ", 1, 24, usize, csize, offset)
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | 45, 45, 0x800, method, 0, 0x21, crc,
                                   0xFFFFFFFF, 0xFFFFFFFF, len(name), len(cextra), 0, 0, 0, mode << 16, 0xFFFFFFFF) + name + cextra
        else:
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | 20, 20, 0x800, method, 0, 0x21, crc,
                                   csize, usize, len(name), 0, 0, 0, 0, mode << 16, offset) + name
    cd_offset = len(out)
    out += central
    if force_zip64:
        z64_offset = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(entries), len(entries), len(central), cd_offset)
        out += struct.pack("<IIQI", 0x07064B50, 0, z64_offset, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, len(comment)) + comment
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), cd_offset, len(comment)) + comment
    return bytes(out)


def tree_entries(root, prefix):
    """Zip entries for every file under root (sorted), named prefix + relative path, keeping the executable bit."""
    import os
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel = os.path.relpath(dirpath, root)
        base = prefix if rel == "." else prefix + rel.replace(os.sep, "/") + "/"
        entries.append({"name": base, "data": b"", "method": 0})
        for f in sorted(filenames):
            path = os.path.join(dirpath, f)
            mode = os.stat(path).st_mode & 0o777
            entries.append({"name": base + f, "data": open(path, "rb").read(), "mode": 0o100000 | mode})
    return entries

# ---------------------------------------------------------------- DER entitlements

def _tlv(tag, body):
    n = len(body)
    if n < 0x80:
        length = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + length + body


def der_value(v, dict_tag):
    if isinstance(v, bool):
        return _tlv(0x01, b"\xff" if v else b"\x00")
    if isinstance(v, int):
        return _tlv(0x02, v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big", signed=True))
    if isinstance(v, str):
        return _tlv(0x0C, v.encode())
    if isinstance(v, list):
        return _tlv(0x30, b"".join(der_value(x, dict_tag) for x in v))
    if isinstance(v, dict):
        return _tlv(dict_tag, b"".join(_tlv(0x30, der_value(k, dict_tag) + der_value(v[k], dict_tag)) for k in sorted(v)))
    raise TypeError(type(v))


def der_entitlements(ents, form):
    """form 'apple': [APPLICATION 16] { INTEGER 1, [16] dict }; 'bare': a SET of key/value SEQUENCEs."""
    if form == "apple":
        return _tlv(0x70, _tlv(0x02, b"\x01") + der_value(ents, 0xB0))
    return der_value(ents, 0x31)

# ---------------------------------------------------------------- ad hoc code signature

def _blob(magic, payload):
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def codesign(path, identifier, team, entitlements=None, der_form="apple", info_plist=None, resources=None, signer=None):
    """Replace the signature ld64.lld reserved with one carrying entitlements.

    Without `signer` the signature is ad hoc (flag 0x2, empty CMS blob). With `signer` =
    (cert.pem, key.pem, work directory) it is a distribution-style signature: a detached CMS
    SignedData over the CodeDirectory made by `openssl cms -sign`, and special slots sealing the
    bundle's Info.plist (`info_plist` bytes) and _CodeSignature/CodeResources (`resources` bytes)."""
    data = bytearray(open(path, "rb").read())
    magic, cpu, sub, ftype, ncmds, sizecmds, flags, _ = struct.unpack_from("<IiiIIIII", data, 0)
    assert magic == 0xFEEDFACF, "thin 64-bit Mach-O expected"
    off = 32
    sig_cmd = linkedit_cmd = None
    text_size = 0
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == 0x1D:
            sig_cmd = off
        if cmd == 0x19:
            seg = data[off + 8:off + 24].rstrip(b"\0")
            if seg == b"__LINKEDIT":
                linkedit_cmd = off
            if seg == b"__TEXT":
                text_size = struct.unpack_from("<Q", data, off + 48)[0]
        off += size
    assert sig_cmd and linkedit_cmd, "link with -adhoc_codesign so a signature is reserved"
    dataoff = struct.unpack_from("<I", data, sig_cmd + 8)[0]
    del data[dataoff:]

    specials = {}
    xml = der = None
    if entitlements is not None:
        xml = _blob(0xFADE7171, plistlib.dumps(entitlements, fmt=plistlib.FMT_XML))
        specials[5] = xml
        if der_form:
            der = _blob(0xFADE7172, der_entitlements(entitlements, der_form))
            specials[7] = der
    requirements = _blob(0xFADE0C01, struct.pack(">I", 0))
    specials[2] = requirements
    if info_plist is not None:
        specials[1] = info_plist
    if resources is not None:
        specials[3] = resources
    n_special = max(specials) if specials else 0
    page = 4096
    n_code = (dataoff + page - 1) // page
    ident = identifier.encode() + b"\0"
    team_b = team.encode() + b"\0"
    header_len = 88
    ident_off = header_len
    team_off = ident_off + len(ident)
    hash_off = team_off + len(team_b) + 32 * n_special
    cd_len = hash_off + 32 * n_code
    cms = _blob(0xFADE0B01, b"")
    cms_reserve = 6000 if signer else 0  # room for the CMS blob, padded with zeros after it
    blobs = [(0, cd_len), (2, len(requirements))]
    if xml:
        blobs.append((5, len(xml)))
    if der:
        blobs.append((7, len(der)))
    blobs.append((0x10000, len(cms)))
    super_len = 12 + 8 * len(blobs) + sum(l for _, l in blobs)
    padded = (super_len + cms_reserve + 15) // 16 * 16

    # Patch sizes first: the header is part of what the code directory hashes.
    struct.pack_into("<I", data, sig_cmd + 12, padded)
    fileoff = struct.unpack_from("<Q", data, linkedit_cmd + 40)[0]
    filesize = dataoff + padded - fileoff
    struct.pack_into("<Q", data, linkedit_cmd + 48, filesize)
    struct.pack_into("<Q", data, linkedit_cmd + 32, (filesize + 0x3FFF) // 0x4000 * 0x4000)

    special_hashes = b""
    for slot in range(n_special, 0, -1):
        special_hashes += hashlib.sha256(specials[slot]).digest() if slot in specials else b"\0" * 32
    code_hashes = b"".join(hashlib.sha256(bytes(data[i * page:min((i + 1) * page, dataoff)])).digest() for i in range(n_code))
    flags = 0 if signer else 0x2
    exec_flags = 1 if ftype == 2 else 0
    cd = struct.pack(">IIIIIIIIIBBBBIIIIQQQQ", 0xFADE0C02, cd_len, 0x20400, flags, hash_off, ident_off, n_special, n_code,
                     dataoff, 32, 2, 0, 12, 0, 0, team_off, 0, 0, 0, text_size, exec_flags)
    assert len(cd) == header_len
    cd += ident + team_b + special_hashes + code_hashes
    if signer:
        cms = _blob(0xFADE0B01, _cms_detached(cd, *signer))
        assert len(cms) <= cms_reserve + 8, "the CMS blob outgrew its reservation"
        blobs[-1] = (0x10000, len(cms))
        super_len = 12 + 8 * len(blobs) + sum(l for _, l in blobs)
    payloads = {0: cd, 2: requirements, 5: xml, 7: der, 0x10000: cms}
    index = b""
    body = b""
    pos = 12 + 8 * len(blobs)
    for slot, length in blobs:
        index += struct.pack(">II", slot, pos)
        body += payloads[slot]
        pos += length
    sb = struct.pack(">III", 0xFADE0CC0, super_len, len(blobs)) + index + body
    data += sb + b"\0" * (padded - len(sb))
    open(path, "wb").write(bytes(data))

def _cms_detached(content, cert, key, work):
    """DER CMS SignedData over `content`, detached, with openssl's signed attributes (content type,
    signing time, message digest), as codesign's CMS blob."""
    src = os.path.join(work, "codedirectory.bin")
    dest = os.path.join(work, "codedirectory.cms")
    open(src, "wb").write(content)
    subprocess.run(["openssl", "cms", "-sign", "-binary", "-nosmimecap", "-md", "sha256", "-outform", "DER",
                    "-in", src, "-signer", cert, "-inkey", key, "-out", dest], check=True)
    return open(dest, "rb").read()


def cdhash(path):
    """The CDHash (SHA-256 of the CodeDirectory, cut to 20 bytes) of every slice of a thin or fat file."""
    data = open(path, "rb").read()
    slices = [(0, len(data))]
    if struct.unpack_from(">I", data, 0)[0] == 0xCAFEBABE:
        count = struct.unpack_from(">I", data, 4)[0]
        slices = [struct.unpack_from(">II", data, 8 + 20 * i + 8) for i in range(count)]
    hashes = []
    for start, size in slices:
        image = data[start:start + size]
        ncmds = struct.unpack_from("<I", image, 16)[0]
        off = 32
        for _ in range(ncmds):
            cmd, csize = struct.unpack_from("<II", image, off)
            if cmd == 0x1D:
                dataoff = struct.unpack_from("<I", image, off + 8)[0]
                count = struct.unpack_from(">I", image, dataoff + 8)[0]
                for i in range(count):
                    slot, blob_off = struct.unpack_from(">II", image, dataoff + 12 + 8 * i)
                    if slot == 0:
                        length = struct.unpack_from(">I", image, dataoff + blob_off + 4)[0]
                        cd = image[dataoff + blob_off:dataoff + blob_off + length]
                        hashes.append(hashlib.sha256(cd).digest()[:20])
            off += csize
    return hashes


RULES = {"^.*": True, "^.*\\.lproj/": {"optional": True, "weight": 1000.0},
         "^.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0}, "^Base\\.lproj/": {"weight": 1010.0},
         "^version.plist$": True}
RULES2 = {".*\\.dSYM($|/)": {"weight": 11.0}, "^(.*/)?\\.DS_Store$": {"omit": True, "weight": 2000.0},
          "^.*": True, "^.*\\.lproj/": {"optional": True, "weight": 1000.0},
          "^.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0}, "^Base\\.lproj/": {"weight": 1010.0},
          "^Info\\.plist$": {"omit": True, "weight": 20.0}, "^PkgInfo$": {"omit": True, "weight": 20.0},
          "^embedded\\.provisionprofile$": {"weight": 20.0}, "^version\\.plist$": {"weight": 20.0},
          "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS|Library/(Automator|Spotlight|LoginItems))/":
              {"nested": True, "weight": 10.0},
          "^[^/]+$": {"nested": True, "weight": 10.0}}


def code_resources(bundle, executable, nested):
    """_CodeSignature/CodeResources for `bundle`: every file but the executable, Info.plist and the
    nested bundles (listed in `nested`, sealed by their CDHash), with codesign's standard rules."""
    files, files2 = {}, {}
    for dirpath, dirnames, filenames in os.walk(bundle):
        rel_dir = os.path.relpath(dirpath, bundle)
        if rel_dir != "." and (rel_dir.split(os.sep)[0] == "_CodeSignature" or
                               any(rel_dir == n or rel_dir.startswith(n + os.sep) for n in nested)):
            continue
        for name in filenames:
            rel = name if rel_dir == "." else os.path.join(rel_dir, name).replace(os.sep, "/")
            if rel in (executable, "Info.plist", "PkgInfo"):
                continue
            data = open(os.path.join(dirpath, name), "rb").read()
            files[rel] = hashlib.sha1(data).digest()
            files2[rel] = {"hash": hashlib.sha1(data).digest(), "hash2": hashlib.sha256(data).digest()}
    for rel, hashes in nested.items():
        files2[rel] = {"cdhash": hashes[0], "requirement": "anchor apple generic"}
    return plistlib.dumps({"files": files, "files2": files2, "rules": RULES, "rules2": RULES2}, fmt=plistlib.FMT_XML)

# ---------------------------------------------------------------- CgBI PNG

def _chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _filter_rows(rows, bpp):
    """Use every PNG filter type in turn so that decoders must implement all five."""
    out = bytearray()
    prev = bytes(len(rows[0]))
    for y, row in enumerate(rows):
        ftype = y % 5
        out.append(ftype)
        for x in range(len(row)):
            a = row[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            pred = [0, a, b, (a + b) // 2, _paeth(a, b, c)][ftype]
            out.append((row[x] - pred) & 0xFF)
        prev = row
    return bytes(out)


def cgbi_png(width, height, pixel, idat_chunk=1000):
    """pixel(x, y) -> (r, g, b, a). Returns (cgbi_bytes, expected_rgba) where expected is what a
    converter must produce: premultiplied BGRA as stored, un-premultiplied with rounding."""
    rows = []
    expected = bytearray()
    for y in range(height):
        row = bytearray()
        for x in range(width):
            r, g, b, a = pixel(x, y)
            pr, pg, pb = [(c * a + 127) // 255 for c in (r, g, b)]
            row += bytes([pb, pg, pr, a])
            for c in (pr, pg, pb):
                expected.append(0 if a == 0 else min(255, (c * 255 + a // 2) // a))
            expected.append(a)
        rows.append(bytes(row))
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    idat = comp.compress(_filter_rows(rows, 4)) + comp.flush()
    png = b"\x89PNG\r\n\x1a\n" + _chunk(b"CgBI", bytes([0x50, 0x00, 0x20, 0x06]))
    png += _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    for i in range(0, len(idat), idat_chunk):
        png += _chunk(b"IDAT", idat[i:i + idat_chunk])
    png += _chunk(b"IEND", b"")
    return png, bytes(expected)

# ---------------------------------------------------------------- fat files

def set_cpu_subtype(path, subtype):
    """ld64.lld writes arm64e images with the arm64 subtype; Apple's linker sets 2 | CPU_SUBTYPE_PTRAUTH_ABI."""
    data = bytearray(open(path, "rb").read())
    struct.pack_into("<I", data, 8, subtype)
    open(path, "wb").write(bytes(data))


def fat(paths, dest, align=14):
    """Writes a fat (universal) file around thin images, each aligned to 2**align."""
    images = [open(p, "rb").read() for p in paths]
    header = struct.pack(">II", 0xCAFEBABE, len(images))
    offset = 1 << align
    body = b""
    for image in images:
        cpu, sub = struct.unpack_from("<ii", image, 4)
        header += struct.pack(">iiIII", cpu, sub & 0x00FFFFFF, offset, len(image), align)
        body += image
        end = (1 << align) + len(body)
        body += b"\0" * ((-end) % (1 << align))
        offset = (1 << align) + len(body)
    out = header + b"\0" * ((1 << align) - len(header)) + body
    open(dest, "wb").write(out)
