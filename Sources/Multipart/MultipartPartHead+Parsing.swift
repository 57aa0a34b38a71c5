extension MultipartPartHead {
    /// Reads a part's header section: CRLF-separated `Name: value` lines (bare CR and LF were
    /// already refused as the bytes arrived), without the empty line that ends it.
    ///
    /// Strict on what decides where a part goes: exactly one Content-Disposition of type
    /// form-data with a name, at most one Content-Type, no obsolete line folding (RFC 7578 §4.8
    /// and RFC 9112 §5.2), values in UTF-8 (which is how browsers send non-ASCII names).
    init(index: Int, headerSection: ArraySlice<UInt8>) throws(MultipartError) {
        let part = MultipartError.Part(number: index + 1)
        var fields: [Field] = []
        for line in Self.lines(headerSection) {
            fields.append(try Self.field(line, part: part))
        }
        func only(_ name: String) throws(MultipartError) -> String? {
            let matching = fields.filter { $0.name.lowercased() == name.lowercased() }
            guard matching.count <= 1 else { throw .malformedHeader(part: part, reason: "it has \(matching.count) \(name) fields") }
            return matching.first?.value
        }
        guard let disposition = try only("Content-Disposition") else { throw .missingContentDisposition(part: part) }
        let (name, filename) = try Self.disposition(disposition, part: part)
        let named = MultipartError.Part(number: index + 1, name: name)
        let contentType = try only("Content-Type")
        if let contentType, contentType.isEmpty {
            throw .malformedHeader(part: named, reason: "its Content-Type is empty")
        }
        // RFC 7578 §4.7 deprecates the field; the identity encodings are harmless (HockeySDK
        // sends "binary"), anything else would need decoding this parser does not do.
        if let encoding = try only("Content-Transfer-Encoding"), !["7bit", "8bit", "binary"].contains(encoding.lowercased()) {
            throw .unsupportedTransferEncoding(part: named, encoding: encoding)
        }
        self.init(index: index, name: name, filename: filename, contentType: contentType ?? "text/plain", fields: fields)
    }

    /// The lines of a header section, split at CRLF.
    static func lines(_ section: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        guard !section.isEmpty else { return [] }
        var lines: [ArraySlice<UInt8>] = []
        var start = section.startIndex
        var index = section.startIndex
        while index < section.endIndex {
            if section[index] == 0x0D, index + 1 < section.endIndex, section[index + 1] == 0x0A {
                lines.append(section[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(section[start..<section.endIndex])
        return lines
    }

    /// One `Name: value` line.
    static func field(_ line: ArraySlice<UInt8>, part: MultipartError.Part) throws(MultipartError) -> Field {
        guard let first = line.first else { throw .malformedHeader(part: part, reason: "it contains an empty line") }
        if first == HeaderParameters.space || first == HeaderParameters.tab {
            throw .malformedHeader(part: part, reason: "a line starts with whitespace (folded header lines are not accepted)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformedHeader(part: part, reason: "the line \"\(MultipartError.shortened(String(decoding: line, as: UTF8.self)))\" has no colon")
        }
        let nameBytes = line[line.startIndex..<colon]
        guard !nameBytes.isEmpty else { throw .malformedHeader(part: part, reason: "a field has no name") }
        let name = String(decoding: nameBytes, as: UTF8.self)
        if let last = nameBytes.last, last == HeaderParameters.space || last == HeaderParameters.tab {
            throw .malformedHeader(part: part, reason: "the field name \"\(MultipartError.shortened(name))\" is followed by whitespace before the colon")
        }
        guard nameBytes.allSatisfy(HeaderParameters.isToken) else {
            throw .malformedHeader(part: part, reason: "the field name \"\(MultipartError.shortened(name))\" is not a token")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == HeaderParameters.space || byte == HeaderParameters.tab { value = value.dropFirst() }
        while let byte = value.last, byte == HeaderParameters.space || byte == HeaderParameters.tab { value = value.dropLast() }
        guard value.allSatisfy({ $0 == HeaderParameters.tab || ($0 >= HeaderParameters.space && $0 != 0x7F) }) else {
            throw .malformedHeader(part: part, reason: "the field \(MultipartError.shortened(name)) contains a control character")
        }
        guard let text = String(validating: value, as: UTF8.self) else {
            throw .malformedHeader(part: part, reason: "the field \(MultipartError.shortened(name)) is not valid UTF-8")
        }
        return Field(name: name, value: text)
    }

    /// The `name` and file name of a `form-data` Content-Disposition (RFC 7578 §4.2).
    static func disposition(_ value: String, part: MultipartError.Part) throws(MultipartError) -> (String, String?) {
        let text = Array(value.utf8)
        let type: String
        let end: Int
        let parameters: [HeaderParameter]
        do {
            (type, end) = try HeaderParameters.leadingToken(text, slash: false)
        } catch {
            throw .invalidContentDisposition(part: part, reason: error.reason)
        }
        guard type == "form-data" else {
            throw .invalidContentDisposition(part: part, reason: "its type is \"\(MultipartError.shortened(type))\", not form-data")
        }
        do {
            parameters = try HeaderParameters.parse(text, from: end)
        } catch {
            throw .invalidContentDisposition(part: part, reason: error.reason)
        }
        func only(_ name: String) throws(MultipartError) -> HeaderParameter? {
            let matching = parameters.filter { $0.name == name }
            guard matching.count <= 1 else { throw .invalidContentDisposition(part: part, reason: "the parameter \(name) appears \(matching.count) times") }
            return matching.first
        }
        func decoded(_ parameter: HeaderParameter, _ reference: MultipartError.Part) throws(MultipartError) -> String {
            // An unquoted value must be a token; anything else has to be quoted.
            if !parameter.quoted, !parameter.value.allSatisfy(HeaderParameters.isToken) {
                throw .invalidContentDisposition(part: reference, reason: "the unquoted \(parameter.name) value is not a token (quote it)")
            }
            guard let string = String(validating: parameter.value, as: UTF8.self) else {
                throw .invalidContentDisposition(part: reference, reason: "the \(parameter.name) parameter is not valid UTF-8")
            }
            return string
        }
        guard let nameParameter = try only("name") else {
            throw .invalidContentDisposition(part: part, reason: "it has no name parameter")
        }
        let name = try decoded(nameParameter, part)
        let named = MultipartError.Part(number: part.number, name: name)
        var filename: String?
        if let plain = try only("filename") {
            filename = try decoded(plain, named)
        }
        // RFC 7578 §4.2 and RFC 6266 §4.3: the extended form wins when both are given.
        if let extended = try only("filename*") {
            do {
                filename = try ExtendedValue.decode(extended.value)
            } catch {
                throw .invalidContentDisposition(part: named, reason: "filename* \(error.reason)")
            }
        }
        return (name, filename)
    }
}
