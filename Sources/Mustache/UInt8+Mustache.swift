/// The bytes the parser and renderer look for, by name.
extension UInt8 {
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let bang = UInt8(ascii: "!")
    static let hash = UInt8(ascii: "#")
    static let caret = UInt8(ascii: "^")
    static let slash = UInt8(ascii: "/")
    static let ampersand = UInt8(ascii: "&")
    static let greaterThan = UInt8(ascii: ">")
    static let lessThan = UInt8(ascii: "<")
    static let equals = UInt8(ascii: "=")
    static let dollar = UInt8(ascii: "$")
    static let dot = UInt8(ascii: ".")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")

    /// Space or tab: what may surround a tag that stands alone on its line.
    var isBlank: Bool { self == 0x20 || self == 0x09 }

    /// Space, tab or a line break: what may pad a tag's name.
    var isWhitespace: Bool { isBlank || self == .newline || self == .carriageReturn }

    /// A byte of one part of a name: ASCII letters, digits, `_` and `-`.
    var isNameByte: Bool {
        switch self {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
             UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// A byte of a partial's name: a name byte, `.` or `/` (partials are often named like files).
    var isPartialNameByte: Bool { isNameByte || self == .dot || self == .slash }
}
