/// Percent-decoding of URI components (RFC 3986 §2.1).
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space in query strings); returns nil for a malformed escape.
    static func decodeStrict(_ text: String, plusAsSpace: Bool = false) -> String? {
        if !text.utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && text.utf8.contains(UInt8(ascii: "+"))) {
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(ASCII.hexValue),
                      let low = iterator.next().flatMap(ASCII.hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(ASCII.space)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Like `decodeStrict`, but returns the input unchanged when it is malformed.
    static func decode(_ text: String, plusAsSpace: Bool = false) -> String {
        decodeStrict(text, plusAsSpace: plusAsSpace) ?? text
    }
}
