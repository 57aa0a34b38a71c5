extension PlistValue {
    /// Deepest nesting of arrays and dictionaries the readers accept (`[[]]` nests 2 deep). Apple's
    /// property lists nest fewer than 20 levels; the limit keeps every recursive walk of a value
    /// (equality, hashing, release, writing, `displayText`) far from the end of the smallest
    /// thread stack that reads one (a server worker's, in a debug build).
    public static let maximumNesting = 64

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
            throw PlistError("the \(isBinary ? "binary" : "XML") property list (\(bytes.count) bytes) cannot be parsed: \(error.reason)", kind: error.kind)
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
