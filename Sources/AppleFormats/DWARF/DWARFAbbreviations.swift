/// One abbreviation: the layout shared by many debugging information entries.
public struct DWARFAbbreviation: Sendable {
    /// One attribute in the layout.
    public struct Spec: Sendable {
        /// The attribute number (`DW_AT_*`).
        public var attribute: UInt64
        /// The form number (`DW_FORM_*`).
        public var form: UInt64
        /// The value of a `DW_FORM_implicit_const` attribute, stored in the abbreviation itself.
        public var implicitConst: Int64
    }

    /// The abbreviation code entries refer to.
    public var code: UInt64
    /// The tag (`DW_TAG_*`).
    public var tag: UInt64
    /// Whether entries with this layout are followed by children.
    public var hasChildren: Bool
    /// The attributes in encoding order.
    public var specs: [Spec]
    /// The encoded size of all attributes when every form has a fixed size for the unit, so
    /// uninteresting entries can be skipped with one addition.
    public var fixedSize: Int?
}

/// The abbreviation table of one or more units, indexed by code.
public struct DWARFAbbreviationTable: Sendable {
    // Codes are almost always 1...n, so a dense array makes lookups an index operation.
    var dense: [DWARFAbbreviation?]
    var sparse: [UInt64: DWARFAbbreviation]

    /// The abbreviation for `code`, or nil if the table has none.
    public func abbreviation(_ code: UInt64) -> DWARFAbbreviation? {
        if code < UInt64(dense.count) { return dense[Int(code)] }
        return sparse[code]
    }

    // Tables this large are hostile; real ones have at most a few thousand entries.
    static let maxEntries = 1 << 20

    /// Parses the table starting at `offset` in `.debug_abbrev`, computing fixed sizes for a unit
    /// with the given address size, offset size and version.
    public init(section: UnsafeRawBufferPointer, offset: Int, format: DWARFFormat) throws(DWARFError) {
        var r = ByteReader(section)
        dense = [nil]
        sparse = [:]
        do {
            try r.seek(to: offset)
            var count = 0
            while true {
                let code = try r.uleb128()
                if code == 0 { break }
                count += 1
                guard count <= Self.maxEntries else {
                    throw DWARFError.malformed(section: "__debug_abbrev", offset: offset, reason: "the table has more than \(Self.maxEntries) entries")
                }
                let tag = try r.uleb128()
                let children = try r.u8()
                var specs: [DWARFAbbreviation.Spec] = []
                var fixed: Int? = 0
                while true {
                    let attribute = try r.uleb128()
                    let form = try r.uleb128()
                    if attribute == 0 && form == 0 { break }
                    var implicit: Int64 = 0
                    if form == DWARFForm.implicitConst { implicit = try r.sleb128() }
                    specs.append(.init(attribute: attribute, form: form, implicitConst: implicit))
                    if let size = format.fixedSize(of: form), let sum = fixed { fixed = sum + size } else { fixed = nil }
                }
                let entry = DWARFAbbreviation(code: code, tag: tag, hasChildren: children != 0, specs: specs, fixedSize: fixed)
                if code < 4096 && code <= UInt64(dense.count) + 64 {
                    while dense.count <= Int(code) { dense.append(nil) }
                    if dense[Int(code)] == nil { dense[Int(code)] = entry }
                } else if sparse[code] == nil {
                    sparse[code] = entry
                }
            }
        } catch let error as DWARFError {
            throw error
        } catch let error as BinaryError {
            throw DWARFError.wrap(error, section: "__debug_abbrev")
        } catch {
            throw DWARFError.malformed(section: "__debug_abbrev", offset: offset, reason: "\(error)")
        }
    }
}
