/// XML's character references and the five predefined entities, shared by the property-list reader
/// and the XML tree reader.
enum XMLEntity {
    /// The character `&name;` stands for (`lt`, `gt`, `amp`, `quot`, `apos`, `#65`, `#x41`); nil
    /// for anything else and for NUL, which XML forbids.
    static func character(named name: String) -> Unicode.Scalar? {
        let scalar: Unicode.Scalar?
        switch name {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                scalar = nil
            }
        }
        guard let scalar, scalar.value != 0 else { return nil }
        return scalar
    }

    /// The entity whose `&` is at `ampersand` in `bytes`, appended to `out` as UTF-8; returns the
    /// index after its `;`, or the sentence saying what is wrong with it.
    static func read(_ bytes: [UInt8], at ampersand: Int, into out: inout [UInt8]) -> Result<Int, Problem> {
        let start = ampersand + 1
        var end = start
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { return .failure(Problem("an & starts no entity (write &amp; for a literal &)")) }
        let name = String(decoding: bytes[start ..< end], as: UTF8.self)
        guard let scalar = character(named: name) else { return .failure(Problem("&\(name); is not a known entity or character")) }
        out.append(contentsOf: String(Character(scalar)).utf8)
        return .success(end + 1)
    }

    /// What is wrong with an entity, as a sentence for the reader's error.
    struct Problem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
