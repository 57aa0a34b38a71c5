extension UTCDateComponents {
    /// The layouts in which the formats read here write a UTC time as text.
    enum TextLayout: Sendable {
        /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, as XML property lists hold dates.
        case iso8601
        /// `YYYYMMDDHHMM[SS][.fff]Z`, ASN.1 GeneralizedTime.
        case generalizedTime
        /// `YYMMDDHHMM[SS]Z`, ASN.1 UTCTime: years 50-99 are 19xx, 00-49 are 20xx (RFC 5280 4.1.2.5.1).
        case utcTime
    }

    /// Why a text is not a UTC time in its layout; each format words its own message around it.
    enum TextProblem: Error, Sendable {
        /// The text ends before a field it needs.
        case tooShort
        /// A field holds something other than an ASCII digit.
        case notADigit
        /// A separator (`-`, `T`, `:`) is missing or wrong.
        case misplacedSeparator
        /// The text does not end in a single `Z` right after the seconds (or their fraction).
        case notUTC
        /// A field is outside its range (see `isValid`).
        case outOfRange
    }

    /// Parses `text` in `layout`: the whole-second components, which are `isValid`, and the
    /// fraction of a second that followed them (0 when there was none).
    static func parse(_ text: [UInt8], layout: TextLayout) throws(TextProblem) -> (components: UTCDateComponents, fraction: Double) {
        var index = 0
        func number(_ count: Int) throws(TextProblem) -> Int {
            guard count <= text.count - index else { throw .tooShort }
            var value = 0
            for byte in text[index ..< index + count] {
                guard byte.isASCIIDigit else { throw .notADigit }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        let separated = layout == .iso8601
        func separator(_ byte: UInt8) throws(TextProblem) {
            guard separated else { return }
            guard index < text.count else { throw .tooShort }
            guard text[index] == byte else { throw .misplacedSeparator }
            index += 1
        }
        var year = try number(layout == .utcTime ? 2 : 4)
        if layout == .utcTime { year += year < 50 ? 2000 : 1900 }
        try separator(UInt8(ascii: "-"))
        let month = try number(2)
        try separator(UInt8(ascii: "-"))
        let day = try number(2)
        try separator(UInt8(ascii: "T"))
        let hour = try number(2)
        try separator(UInt8(ascii: ":"))
        let minute = try number(2)
        var second = 0
        // ASN.1 times may leave out the seconds; property lists always write them.
        if separated {
            try separator(UInt8(ascii: ":"))
            second = try number(2)
        } else if index + 2 <= text.count, text[index].isASCIIDigit {
            second = try number(2)
        }
        var fraction = 0.0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < text.count, text[index].isASCIIDigit {
                fraction += Double(text[index] &- UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
        }
        guard index == text.count - 1, text[index] == UInt8(ascii: "Z") else { throw .notUTC }
        let components = UTCDateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard components.isValid else { throw .outOfRange }
        return (components, fraction)
    }
}
