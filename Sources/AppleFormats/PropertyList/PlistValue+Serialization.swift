extension PlistValue {
    /// Parses an XML or binary (`bplist00`) property list.
    ///
    /// Both readers are strict: unknown elements, bad numbers, dates or base64, duplicate keys,
    /// out-of-range references and reference cycles are errors that name the offset, never a trap.
    /// OpenStep-style (`{ key = value; }`) property lists are not supported.
    public init(parsing bytes: [UInt8]) throws(PlistError) {
        let isBinary = bytes.starts(with: BinaryPlistReader.magicPrefix)
        do {
            self = isBinary ? try BinaryPlistReader.parse(bytes) : try XMLPlistReader.parse(bytes)
        } catch {
            throw PlistError("the \(isBinary ? "binary" : "XML") property list (\(bytes.count) bytes) cannot be parsed: \(error.reason)")
        }
    }

    /// Serializes as an XML property list with keys sorted, laid out as Apple's tools write it.
    public func xmlBytes() throws(PlistError) -> [UInt8] {
        try XMLPlistWriter.write(self)
    }

    /// Serializes as a binary (`bplist00`) property list with keys sorted. Dates must lie in years
    /// 0000 to 9999, as for `xmlBytes()`: readers refuse others.
    public func binaryBytes() throws(PlistError) -> [UInt8] {
        try BinaryPlistWriter.write(self)
    }
}
