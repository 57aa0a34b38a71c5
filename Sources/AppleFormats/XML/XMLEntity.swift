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
}
