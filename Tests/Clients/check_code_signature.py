#!/usr/bin/env python3
"""An independent code-signature checker for the signer's tests: hashlib, plistlib and asn1crypto,
with rcodesign (apple-platform-py) as a second opinion. It shares no code with betactl.

For every slice of the Mach-O it checks each CodeDirectory's page hashes, the special slots of
the blobs it carries (and of Info.plist and CodeResources when given), that the CMS blob's signed
message digest is that of the primary CodeDirectory, and that its CDHashes attribute lists every
CodeDirectory when there are several. (The CMS signature itself is for `openssl cms -verify`.) rcodesign's verify_macho
must find nothing either.

Usage: check_code_signature.py MACHO [INFO_PLIST CODE_RESOURCES]
Prints JSON {"problems": [...], "slices": [...]}; exits 1 when there is a problem.
"""
import hashlib
import json
import plistlib
import struct
import sys

from asn1crypto import cms as asn1cms

HASHES = {1: hashlib.sha1, 2: hashlib.sha256}
DIGEST_NAMES = {"sha1": hashlib.sha1, "sha256": hashlib.sha256}


def slices(data):
    if struct.unpack_from(">I", data, 0)[0] == 0xCAFEBABE:
        count = struct.unpack_from(">I", data, 4)[0]
        return [struct.unpack_from(">II", data, 8 + 20 * i + 8) for i in range(count)]
    return [(0, len(data))]


def check_slice(image, extra, problems, label):
    magic = struct.unpack_from("<I", image, 0)[0]
    ncmds = struct.unpack_from("<I", image, 16)[0]
    offset = 32 if magic == 0xFEEDFACF else 28
    signature = None
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", image, offset)
        if cmd == 0x1D:
            signature = struct.unpack_from("<II", image, offset + 8)
        offset += size
    if signature is None:
        problems.append(f"{label}: no LC_CODE_SIGNATURE")
        return {}
    start, _ = signature
    sb = image[start:]
    count = struct.unpack_from(">I", sb, 8)[0]
    blobs = {}
    for i in range(count):
        slot, blob_offset = struct.unpack_from(">II", sb, 12 + 8 * i)
        length = struct.unpack_from(">I", sb, blob_offset + 4)[0]
        blobs[slot] = sb[blob_offset:blob_offset + length]
    directories = {slot: blob for slot, blob in blobs.items() if slot == 0 or 0x1000 <= slot < 0x1005}
    cdhashes = []
    for slot, cd in sorted(directories.items()):
        (version, flags, hash_offset, ident_offset, n_special, n_code, code_limit, hash_size, hash_type,
         _platform, page_log2) = struct.unpack_from(">IIIIIIIBBBB", cd, 8)
        digest = HASHES[hash_type]
        cdhashes.append(digest(cd).digest()[:20])
        if code_limit != start:
            problems.append(f"{label}: CodeDirectory {slot:#x} covers {code_limit} bytes, the signature starts at {start}")
        page = 1 << page_log2
        for index in range(n_code):
            expected = cd[hash_offset + index * hash_size:hash_offset + (index + 1) * hash_size]
            if digest(image[index * page:min((index + 1) * page, code_limit)]).digest() != expected:
                problems.append(f"{label}: CodeDirectory {slot:#x} page {index} does not match")
        sealed = {2: blobs.get(2), 5: blobs.get(5), 7: blobs.get(7)}
        if extra:
            sealed[1], sealed[3] = extra
        for number, content in sealed.items():
            if number > n_special:
                if content is not None and number in (2, 5, 7):
                    problems.append(f"{label}: blob {number} is not sealed by CodeDirectory {slot:#x}")
                continue
            stored = cd[hash_offset - number * hash_size:hash_offset - (number - 1) * hash_size]
            actual = digest(content).digest() if content is not None else bytes(hash_size)
            if stored != actual:
                problems.append(f"{label}: special slot {number} of CodeDirectory {slot:#x} does not match")
    wrapper = blobs.get(0x10000)
    if not wrapper or len(wrapper) <= 8:
        problems.append(f"{label}: no CMS signature")
        return {"cdhashes": [h.hex() for h in cdhashes]}
    signed = asn1cms.ContentInfo.load(bytes(wrapper[8:]))["content"]
    info = signed["signer_infos"][0]
    algorithm = info["digest_algorithm"]["algorithm"].native
    attributes = {attribute["type"].dotted: attribute["values"] for attribute in info["signed_attrs"]}
    message_digest = attributes["1.2.840.113549.1.9.4"][0].native
    if DIGEST_NAMES[algorithm](directories[0]).digest() != message_digest:
        problems.append(f"{label}: the CMS message digest is not that of the primary CodeDirectory")
    listed = attributes.get("1.2.840.113635.100.9.1")
    if listed is None and len(directories) > 1:
        problems.append(f"{label}: the CMS signature has no CDHashes attribute")
    elif listed is not None:
        hashes = [bytes(h)[:20] for h in plistlib.loads(listed[0].native)["cdhashes"]]
        for h in cdhashes:
            if h not in hashes:
                problems.append(f"{label}: the CDHashes attribute does not list {h.hex()}")
    return {"cdhashes": [h.hex() for h in cdhashes], "digest": algorithm}


def main():
    path = sys.argv[1]
    extra = None
    if len(sys.argv) == 4:
        extra = (open(sys.argv[2], "rb").read(), open(sys.argv[3], "rb").read())
    data = open(path, "rb").read()
    problems, summaries = [], []
    for index, (offset, size) in enumerate(slices(data)):
        summaries.append(check_slice(data[offset:offset + size], extra, problems, f"slice {index}"))
    import apple_platform
    for problem in apple_platform.verify_macho(path):
        problems.append(f"rcodesign: {problem}")
    if not apple_platform.read_signature(path):
        problems.append("rcodesign: no signature entities")
    print(json.dumps({"problems": problems, "slices": summaries}))
    sys.exit(1 if problems else 0)


main()
