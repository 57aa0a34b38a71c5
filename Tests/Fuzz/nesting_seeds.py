"""Deep-nesting seeds (issue 17): for every target whose parser or value walks recurse, inputs
nested exactly to the parser's limit and one level past it, and far past it, so the fuzzer starts
at the boundary instead of having to build a 65-level plist or a 101-level JSON text by mutation.

The limits are PlistValue.maximumNesting (64), JSONNesting.maximumDepth (100), BERParser's
default maxDepth (48), XMLTreeReader.maxDepth (64) and MustacheLimits' maximumSectionNesting (100).
"""
import os

PLIST = 64
JSON = 100
DER = 48
XML = 64
MUSTACHE = 100


def xml_plist(depth, prefix=b""):
    """A dictionary (level 1) holding `prefix` entries and arrays nested to `depth` in all."""
    inner = b"<array>" * (depth - 1) + b"</array>" * (depth - 1)
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n' + prefix
            + b"<key>Nested</key>" + inner + b"\n</dict>\n</plist>\n")


def binary_plist(depth):
    """Arrays nested `depth` deep, each holding the next (2-byte references, 4-byte offsets)."""
    objects = [b"\xa0"]
    for index in range(1, depth):
        objects.append(b"\xa1" + (index - 1).to_bytes(2, "big"))
    body, offsets = b"bplist00", []
    for item in objects:
        offsets.append(len(body))
        body += item
    table = len(body)
    body += b"".join(offset.to_bytes(4, "big") for offset in offsets)
    return (body + b"\x00" * 6 + b"\x04\x02" + len(objects).to_bytes(8, "big")
            + (len(objects) - 1).to_bytes(8, "big") + table.to_bytes(8, "big"))


def der_length(length):
    if length < 0x80:
        return bytes([length])
    octets = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(octets)]) + octets


def der(tag, content):
    return bytes([tag]) + der_length(len(content)) + content


def der_sequences(depth):
    value = b"\x30\x00"
    for _ in range(depth - 1):
        value = der(0x30, value)
    return value


def parse_der(data, start=0):
    """(tag, content start, end) of the element at `start`; definite lengths only."""
    tag, first = data[start], data[start + 1]
    if first < 0x80:
        return tag, start + 2, start + 2 + first
    count = first & 0x7F
    if count == 0 or count > 4:
        raise ValueError("indefinite or huge length")
    length = int.from_bytes(data[start + 2: start + 2 + count], "big")
    return tag, start + 2 + count, start + 2 + count + length


def replace_plist_in_der(data, old, new):
    """`data` (definite-length DER) with the OCTET STRING whose content is `old` replaced by
    `new`, every enclosing length rewritten. None when it is not found."""
    def rebuild(start):
        tag, content, end = parse_der(data, start)
        if tag == 0x04 and data[content:end] == old:
            return der(0x04, new), end
        if tag & 0x20:
            children, position = b"", content
            while position < end:
                child, position = rebuild(position)
                children += child
            return bytes([tag]) + der_length(len(children)) + children, end
        return data[start:end], end
    try:
        rebuilt, end = rebuild(0)
    except (ValueError, IndexError):
        return None
    return rebuilt if end == len(data) and rebuilt != data else None


def json_arrays(depth):
    return b"[" * depth + b"]" * depth


def with_nested_member(text, depth):
    """`text` with `"nested": <arrays>` as the first member of its first object, so the whole
    document nests `depth` deep."""
    brace = text.find(b"{")
    if brace < 0:
        return None
    return text[: brace + 1] + b'"nested": ' + json_arrays(depth - 1) + b", " + text[brace + 1:]


def read(root, path):
    full = os.path.join(root, "Tests", "Fixtures", path)
    if not os.path.exists(full):
        return None
    with open(full, "rb") as handle:
        return handle.read()


def emit_nesting_seeds(root, emit):
    """Calls `emit(target, bytes)` for each deep-nesting seed."""
    for depth in (PLIST, PLIST + 1, 400):
        for target in ("plist", "recognize"):
            emit(target, xml_plist(depth))
            emit(target, binary_plist(depth))
        emit("devices-plist", xml_plist(depth, b"<key>Device UDIDs</key><dict/>\n"))
        emit("mobileconfig", xml_plist(depth, b"<key>PayloadType</key><string>Configuration</string>\n"))
    for depth in (DER, DER + 1, 200):
        emit("der", der_sequences(depth))
        emit("der", b"\x30\x80" * depth + b"\x00\x00" * depth)  # BER, indefinite lengths
    for depth in (JSON, JSON + 1, 5000):
        emit("json", json_arrays(depth))
        emit("json", b'{"a":' * (depth - 1) + b"{}" + b"}" * (depth - 1))
        emit("json", b'["[{", ' + json_arrays(depth - 1) + b"]")
        emit("kscrash-batch", b"[" + json_arrays(depth - 1) + b"]")
        body = read(root, "symbols/crashes/App-309.ips")
        if body:
            newline = body.find(b"\n")
            nested = with_nested_member(body[newline + 1:], depth)
            emit("ips-json", nested)
            for target in ("crash", "crash-render", "recognize"):
                emit(target, body[: newline + 1] + nested)
        jetsam = b'{"bug_type":"298","os_version":"iPhone OS 17.4.1 (21E236)"}\n'
        emit("jetsam", jetsam + with_nested_member(b'{"processes":[],"largestProcess":"App"}', depth))
        for name in ("kscrash-3.4.0-microseconds.json", "kscrash-3.1.0-minimal.json"):
            report = read(root, "inspect/kscrash/" + name)
            if report:
                emit("kscrash", with_nested_member(report, depth))
                emit("kscrash-batch", b"[" + with_nested_member(report, depth) + b"]")
    for depth in (XML, XML + 1, 1000):
        upload = read(root, "inspect/hockeyapp/crash-upload.xml")
        if upload:
            emit("hockeyapp", upload.replace(b"<crash>", b"<crash>" + b"<x>" * (depth - 2) + b"</x>" * (depth - 2), 1))
    for depth in (MUSTACHE, MUSTACHE + 1):
        emit("mustache", b"{{#a}}" * depth + b"{{b}}" + b"{{/a}}" * depth)
    # Enrolment replies and profiles are CMS around a plist: the same CMS around a nested one.
    for path, targets in (("inspect/enrollment/reply-iphone.der", ("enrollment", "recognize")),
                          ("formats/profiles/beta_development.mobileprovision", ("profile", "der", "recognize"))):
        data = read(root, path)
        if not data:
            continue
        start, end = data.find(b"<?xml"), data.find(b"</plist>")
        if not 0 <= start < end:
            continue
        old = data[start: end + len(b"</plist>\n")] if data[end + 8: end + 9] == b"\n" else data[start: end + 8]
        for depth in (PLIST, PLIST + 1, 200):
            new = old.replace(b"<dict>", b"<dict><key>Nested</key>" + b"<array>" * (depth - 1) + b"</array>" * (depth - 1), 1)
            signed = replace_plist_in_der(data, old, new)
            if signed is None:
                continue
            for target in targets:
                emit(target, signed)
            if "enrollment" in targets:
                for scenario in range(5):
                    emit("enrollment-intake", bytes([scenario]) + signed)
