/// Parses BER, the superset of DER used by older signing tools: indefinite
/// lengths, constructed strings and non-minimal lengths are accepted; hostile
/// nesting and element counts are bounded.
public struct BERParser {
    /// Bounds on the work a single parse may do.
    public struct Limits: Sendable {
        /// Most levels of elements (a lone primitive is one level): elements are read
        /// recursively, one call per level, and walked recursively afterwards.
        public var maxDepth: Int
        /// Maximum number of elements in the whole input.
        public var maxElements: Int

        /// Limits generous enough for profiles (tens of KB) yet safe against hostile input.
        public init(maxDepth: Int = 48, maxElements: Int = 200_000) {
            self.maxDepth = maxDepth
            self.maxElements = maxElements
        }
    }

    private let bytes: [UInt8]
    private let limits: Limits

    /// Prepares to parse `bytes`.
    public init(bytes: [UInt8], limits: Limits = .init()) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses the single element that must fill the input exactly.
    public func parseSingle() throws(DERError) -> ASN1Element {
        let element = try parsePrefix()
        let end = element.encoded.endIndex
        guard end == bytes.count else { throw DERError.trailingData(offset: end, count: bytes.count - end) }
        return element
    }

    /// Parses the first element and ignores anything after it (Apple pads some blobs).
    public func parsePrefix() throws(DERError) -> ASN1Element {
        var result: Result<ASN1Element, DERError> = .failure(.tooManyElements(limit: 0))
        bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            var count = 0
            do throws(DERError) {
                result = .success(try parseElement(&reader, end: raw.count, depth: 0, count: &count))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    private func parseElement(_ r: inout ByteReader, end: Int, depth: Int, count elementCount: inout Int) throws(DERError) -> ASN1Element {
        // `depth` elements enclose this one: it is level `depth + 1`.
        guard depth < limits.maxDepth else { throw DERError.tooDeep(offset: r.offset, limit: limits.maxDepth) }
        elementCount += 1
        guard elementCount <= limits.maxElements else { throw DERError.tooManyElements(limit: limits.maxElements) }
        let start = r.offset
        let tag = try readTag(&r, end: end)
        let length = try readLength(&r, end: end, start: start)
        let contentStart = r.offset
        if let length {
            guard length <= end - contentStart else {
                throw DERError.truncated(offset: start, claimed: length, available: end - contentStart)
            }
            let contentEnd = contentStart + length
            var children: [ASN1Element] = []
            if tag.isConstructed {
                while r.offset < contentEnd {
                    children.append(try parseElement(&r, end: contentEnd, depth: depth + 1, count: &elementCount))
                }
            }
            r.offset = contentEnd
            return ASN1Element(tag: tag, offset: start, encoded: bytes[start ..< contentEnd],
                               content: bytes[contentStart ..< contentEnd], children: children, isIndefiniteLength: false)
        }
        guard tag.isConstructed else {
            throw DERError.malformedHeader(offset: start, "a primitive \(tag) cannot use the indefinite length form")
        }
        var children: [ASN1Element] = []
        while true {
            guard end - r.offset >= 2 else { throw DERError.missingEndOfContents(offset: start) }
            if bytes[r.offset] == 0 && bytes[r.offset + 1] == 0 {
                let contentEnd = r.offset
                r.offset += 2
                return ASN1Element(tag: tag, offset: start, encoded: bytes[start ..< r.offset],
                                   content: bytes[contentStart ..< contentEnd], children: children, isIndefiniteLength: true)
            }
            do {
                children.append(try parseElement(&r, end: end, depth: depth + 1, count: &elementCount))
            } catch DERError.truncated {
                // Inside an open-ended element, running out of bytes means the outer element is cut short.
                throw DERError.missingEndOfContents(offset: start)
            }
        }
    }

    private func readTag(_ r: inout ByteReader, end: Int) throws(DERError) -> ASN1Tag {
        let start = r.offset
        guard r.offset < end, let first = try? r.u8() else {
            throw DERError.truncated(offset: start, claimed: 1, available: 0)
        }
        let tagClass = ASN1Tag.TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        var number = UInt32(first & 0x1f)
        if number == 0x1f {
            number = 0
            var octets = 0
            while true {
                guard r.offset < end, let byte = try? r.u8() else {
                    throw DERError.truncated(offset: start, claimed: octets + 2, available: octets + 1)
                }
                octets += 1
                guard octets <= 4, !(octets == 1 && byte == 0x80) else {
                    throw DERError.malformedHeader(offset: start, "tag number is not minimally encoded or exceeds 28 bits")
                }
                number = number << 7 | UInt32(byte & 0x7f)
                if byte & 0x80 == 0 { break }
            }
        }
        return ASN1Tag(tagClass, number: number, constructed: constructed)
    }

    /// Returns nil for the indefinite form.
    private func readLength(_ r: inout ByteReader, end: Int, start: Int) throws(DERError) -> Int? {
        guard r.offset < end, let first = try? r.u8() else {
            throw DERError.truncated(offset: start, claimed: 1, available: 0)
        }
        if first < 0x80 { return Int(first) }
        if first == 0x80 { return nil }
        let count = Int(first & 0x7f)
        guard count <= 4 else {
            throw DERError.malformedHeader(offset: start, "length uses \(count) octets; at most 4 are supported")
        }
        guard end - r.offset >= count else {
            throw DERError.truncated(offset: start, claimed: count, available: end - r.offset)
        }
        var value = 0
        for _ in 0 ..< count {
            guard let byte = try? r.u8() else { throw DERError.truncated(offset: start, claimed: count, available: 0) }
            value = value << 8 | Int(byte)
        }
        return value
    }
}
