/// Byte classes the text parsers share (crash reports, XML property lists, base64, UDIDs): they
/// test bytes, not Characters, which is both faster and exact about what ASCII allows.
extension UInt8 {
    /// 0-9.
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }

    /// The value of an ASCII hex digit (0-9, a-f, A-F); nil for any other byte.
    var hexDigitValue: UInt8? {
        if isASCIIDigit { return self - 0x30 }
        let lower = self | 0x20
        return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : nil
    }

    /// Space, tab or carriage return: what separates fields on a crash report's line.
    var isBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0d }

    /// Space, tab, line feed or carriage return (XML's `S`), also what base64 in a plist may wrap with.
    var isXMLWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }

    /// A byte that may appear in the element names property lists use.
    var isXMLNameByte: Bool {
        (self | 0x20 >= 0x61 && self | 0x20 <= 0x7A) || isASCIIDigit || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
            || self == UInt8(ascii: ":") || self == UInt8(ascii: ".")
    }
}
