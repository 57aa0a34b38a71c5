#!/usr/bin/env python3
"""Lay out armv7 (Thumb) Mach-O objects as a minimal executable image plus a dsymutil debug map.

ld64.lld cannot link armv7, and symbolication only needs what a linker records about
placement: where each object's __text lands, the symbol table, and LC_UUID. This script
writes exactly that:

  * an MH_EXECUTE image (__PAGEZERO, __TEXT with one __text section, __LINKEDIT, LC_SYMTAB,
    LC_UUID, LC_VERSION_MIN_IPHONEOS) whose __text holds the objects' code back to back;
  * a YAML debug map for `dsymutil -y`, the same object-to-image address map that ld's N_OSO
    stabs give dsymutil for a normally linked binary.

dsymutil then links the objects' DWARF at those addresses, producing a real armv7 dSYM.
The code bytes are copied without applying relocations: they are never run, and the
symbolicator reads only DWARF, the symbol table, the UUID and segment addresses.

usage: armv7-image.py OUTPUT_IMAGE OUTPUT_MAP OBJECT...
"""
import hashlib
import struct
import sys

CPU_TYPE_ARM, CPU_SUBTYPE_ARM_V7 = 12, 9
LC_SEGMENT, LC_SYMTAB, LC_UUID, LC_VERSION_MIN_IPHONEOS = 0x1, 0x2, 0x1B, 0x25
N_SECT, N_EXT, N_STAB, N_ARM_THUMB_DEF = 0x0E, 0x01, 0xE0, 0x0008
TEXT_VMADDR, TEXT_SECTION_OFFSET = 0x4000, 0x1000


def read_object(path):
    data = open(path, "rb").read()
    magic, cputype, subtype, filetype, ncmds, _sizeofcmds, _flags = struct.unpack_from("<7I", data, 0)
    assert magic == 0xFEEDFACE and cputype == CPU_TYPE_ARM and filetype == 1, f"{path}: not an armv7 object"
    offset, sections, symbols = 28, [], []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<2I", data, offset)
        if cmd == LC_SEGMENT:
            nsects = struct.unpack_from("<I", data, offset + 48)[0]
            for i in range(nsects):
                base = offset + 56 + i * 68
                name = data[base:base + 16].rstrip(b"\0").decode()
                segment = data[base + 16:base + 32].rstrip(b"\0").decode()
                addr, sect_size, file_offset, align = struct.unpack_from("<4I", data, base + 32)
                sections.append((name, segment, addr, sect_size, file_offset, align))
        elif cmd == LC_SYMTAB:
            symoff, nsyms, stroff, _strsize = struct.unpack_from("<4I", data, offset + 8)
            for i in range(nsyms):
                strx, ntype, nsect, ndesc, value = struct.unpack_from("<IBBhI", data, symoff + i * 12)
                name = data[stroff + strx:data.index(b"\0", stroff + strx)].decode()
                symbols.append((name, ntype, nsect, ndesc & 0xFFFF, value))
        offset += size
    text_index = next(i for i, s in enumerate(sections) if s[0] == "__text" and s[1] == "__TEXT")
    name, _, addr, size, file_offset, align = sections[text_index]
    code = data[file_offset:file_offset + size]
    defined = sorted((s for s in symbols if s[1] & N_STAB == 0 and s[1] & 0x0E == N_SECT and s[2] == text_index + 1),
                     key=lambda s: s[4])
    return {"path": path, "code": code, "addr": addr, "align": 1 << align, "symbols": defined}


def main():
    image_path, map_path, objects = sys.argv[1], sys.argv[2], [read_object(p) for p in sys.argv[3:]]
    text, placed = bytearray(), []
    for obj in objects:
        while len(text) % max(obj["align"], 4):
            text += b"\0"
        start = TEXT_VMADDR + TEXT_SECTION_OFFSET + len(text)
        text += obj["code"]
        entries = []
        for i, (name, _ntype, _nsect, ndesc, value) in enumerate(obj["symbols"]):
            end = obj["symbols"][i + 1][4] if i + 1 < len(obj["symbols"]) else obj["addr"] + len(obj["code"])
            entries.append((name, value, start + value - obj["addr"], end - value, ndesc))
        placed.append((obj, entries))

    # __LINKEDIT: the symbol table and its strings.
    strings, nlists = bytearray(b" \0"), bytearray()
    for _, entries in placed:
        for name, _obj_addr, bin_addr, _size, ndesc in entries:
            nlists += struct.pack("<IBBHI", len(strings), N_SECT | N_EXT, 1, ndesc & N_ARM_THUMB_DEF, bin_addr)
            strings += name.encode() + b"\0"
    while len(strings) % 4:
        strings += b"\0"
    text_end = TEXT_SECTION_OFFSET + len(text)
    linkedit_offset = (text_end + 0xFFF) & ~0xFFF
    linkedit = bytes(nlists) + bytes(strings)
    uuid = hashlib.md5(bytes(text) + linkedit).digest()

    def segment(name, vmaddr, vmsize, fileoff, filesize, sections=()):
        body = struct.pack("<16s4I2i2I", name.encode(), vmaddr, vmsize, fileoff, filesize, 5, 5, len(sections), 0)
        for sect in sections:
            body += sect
        return struct.pack("<2I", LC_SEGMENT, 8 + len(body)) + body

    text_section = struct.pack("<16s16s9I", b"__text", b"__TEXT", TEXT_VMADDR + TEXT_SECTION_OFFSET, len(text),
                               TEXT_SECTION_OFFSET, 2, 0, 0, 0x80000400, 0, 0)
    commands = [
        segment("__PAGEZERO", 0, TEXT_VMADDR, 0, 0),
        segment("__TEXT", TEXT_VMADDR, linkedit_offset, 0, linkedit_offset, [text_section]),
        segment("__LINKEDIT", TEXT_VMADDR + linkedit_offset, (len(linkedit) + 0xFFF) & ~0xFFF, linkedit_offset, len(linkedit)),
        struct.pack("<6I", LC_SYMTAB, 24, linkedit_offset, len(nlists) // 12, linkedit_offset + len(nlists), len(strings)),
        struct.pack("<2I", LC_UUID, 24) + uuid,
        struct.pack("<4I", LC_VERSION_MIN_IPHONEOS, 16, 9 << 16, 9 << 16),
    ]
    load = b"".join(commands)
    header = struct.pack("<7I", 0xFEEDFACE, CPU_TYPE_ARM, CPU_SUBTYPE_ARM_V7, 2, len(commands), len(load), 0x200085)
    image = bytearray(header + load)
    assert len(image) <= TEXT_SECTION_OFFSET
    image += b"\0" * (TEXT_SECTION_OFFSET - len(image)) + text
    image += b"\0" * (linkedit_offset - len(image)) + linkedit
    open(image_path, "wb").write(image)

    with open(map_path, "w") as out:
        out.write("---\ntriple: 'thumbv7-apple-ios'\nbinary-path: '%s'\nobjects:\n" % image_path)
        for obj, entries in placed:
            out.write("  - filename: '%s'\n    timestamp: 0\n    symbols:\n" % obj["path"])
            for name, obj_addr, bin_addr, size, _ in entries:
                out.write("      - { sym: '%s', objAddr: 0x%x, binAddr: 0x%x, size: 0x%x }\n" % (name, obj_addr, bin_addr, size))
        out.write("...\n")


if __name__ == "__main__":
    main()
