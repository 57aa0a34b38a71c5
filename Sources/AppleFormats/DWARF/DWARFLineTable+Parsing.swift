extension DWARFLineTable {
    // Bounds on header tables; real ones hold at most a few thousand entries.
    static let maxEntries = 1 << 20

    /// Decodes the line table at `offset` in `.debug_line`. `unit` supplies the address size
    /// when the header has none (before DWARF 5) and the string offsets for `strx` forms.
    public init(sections: DWARFSections, offset: Int, unit: DWARFUnit?) throws(DWARFError) {
        self.offset = offset
        do {
            var r = ByteReader(sections.line)
            try r.seek(to: offset)
            let initial = try DWARFInitialLength.read(&r, section: "__debug_line", offset: offset, what: "table")
            let offsetSize = initial.offsetSize
            let end = r.offset + initial.length
            r = try ByteReader(sections.line).slice(at: 0, count: end)
            r.offset = end - initial.length
            version = try r.u16le()
            guard (2 ... 5).contains(version) else {
                throw DWARFError.unsupportedVersion(section: "__debug_line", offset: offset, version: Int(version))
            }
            var addressSize = unit?.format.addressSize ?? 8
            if version >= 5 {
                addressSize = Int(try r.u8())
                _ = try r.u8()  // segment selector size
            }
            let headerLength = try r.uintLE(byteCount: offsetSize)
            guard headerLength <= UInt64(r.remaining) else {
                throw DWARFError.malformed(section: "__debug_line", offset: offset, reason: "header length \(headerLength) runs past the table")
            }
            let programStart = r.offset + Int(headerLength)
            let parameters = try Parameters(reader: &r, version: version, offset: offset)
            let format = DWARFFormat(version: version, addressSize: addressSize, offsetSize: offsetSize)
            if version >= 5 {
                includeDirectories = try Self.entries(&r, format: format, unit: unit, sections: sections).map(\.name)
                files = try Self.entries(&r, format: format, unit: unit, sections: sections)
            } else {
                includeDirectories = []
                while true {
                    let start = r.offset
                    guard try r.u8() != 0 else { break }
                    while try r.u8() != 0 {}
                    includeDirectories.append(.line(start))
                    guard includeDirectories.count <= Self.maxEntries else { throw BinaryError.invalid(at: start, "too many include directories") }
                }
                files = []
                while true {
                    let start = r.offset
                    guard try r.u8() != 0 else { break }
                    while try r.u8() != 0 {}
                    let directory = try r.uleb128()
                    _ = try r.uleb128(); _ = try r.uleb128()  // modification time, length
                    files.append(FileEntry(name: .line(start), directoryIndex: directory))
                    guard files.count <= Self.maxEntries else { throw BinaryError.invalid(at: start, "too many file entries") }
                }
            }
            r.offset = programStart
            rows = []
            sequences = []
            try run(&r, parameters: parameters, addressSize: addressSize)
        } catch let error as DWARFError {
            throw error
        } catch let error as BinaryError {
            throw DWARFError.wrap(error, section: "__debug_line")
        } catch {
            throw DWARFError.malformed(section: "__debug_line", offset: offset, reason: "\(error)")
        }
    }

    struct Parameters {
        var minimumInstructionLength: UInt64
        var maximumOperationsPerInstruction: UInt64
        var defaultIsStatement: Bool
        var lineBase: Int64
        var lineRange: UInt64
        var opcodeBase: UInt8
        var standardOpcodeLengths: [UInt8]

        init(reader r: inout ByteReader, version: UInt16, offset: Int) throws {
            minimumInstructionLength = UInt64(try r.u8())
            maximumOperationsPerInstruction = version >= 4 ? UInt64(try r.u8()) : 1
            if maximumOperationsPerInstruction == 0 { maximumOperationsPerInstruction = 1 }
            defaultIsStatement = try r.u8() != 0
            lineBase = Int64(Int8(bitPattern: try r.u8()))
            lineRange = UInt64(try r.u8())
            opcodeBase = try r.u8()
            guard opcodeBase >= 1 else {
                throw DWARFError.malformed(section: "__debug_line", offset: offset, reason: "opcode base is 0")
            }
            standardOpcodeLengths = try r.array(Int(opcodeBase) - 1)
        }
    }

    // DWARF 5 directory and file tables: a list of (content type, form) pairs, then the entries.
    static func entries(_ r: inout ByteReader, format: DWARFFormat, unit: DWARFUnit?, sections: DWARFSections) throws -> [FileEntry] {
        let formatCount = Int(try r.u8())
        var layout: [(UInt64, UInt64)] = []
        for _ in 0 ..< formatCount { layout.append((try r.uleb128(), try r.uleb128())) }
        let count = try r.uleb128()
        guard count <= UInt64(maxEntries) else { throw BinaryError.invalid(at: r.offset, "\(count) entries is implausible") }
        var result: [FileEntry] = []
        result.reserveCapacity(Int(Swift.min(count, 4096)))
        for _ in 0 ..< count {
            var name: DWARFStringRef?
            var directory: UInt64 = 0
            for (content, form) in layout {
                switch (content, form) {
                case (1, DWARFForm.string):  // DW_LNCT_path
                    name = .line(r.offset)
                    while try r.u8() != 0 {}
                case (1, DWARFForm.lineStrp):
                    name = .lineStr(Int(clamping: try r.uintLE(byteCount: format.offsetSize)))
                case (1, DWARFForm.strp):
                    name = .str(Int(clamping: try r.uintLE(byteCount: format.offsetSize)))
                case (1, DWARFForm.strx), (1, DWARFForm.strx1), (1, DWARFForm.strx2), (1, DWARFForm.strx3), (1, DWARFForm.strx4):
                    let index: UInt64
                    switch form {
                    case DWARFForm.strx: index = try r.uleb128()
                    case DWARFForm.strx1: index = UInt64(try r.u8())
                    case DWARFForm.strx2: index = UInt64(try r.u16le())
                    case DWARFForm.strx3: index = try r.uintLE(byteCount: 3)
                    default: index = UInt64(try r.u32le())
                    }
                    if let offset = unit?.stringOffset(index: index, sections: sections) { name = .str(offset) }
                case (2, DWARFForm.udata): directory = try r.uleb128()  // DW_LNCT_directory_index
                case (2, DWARFForm.data1): directory = UInt64(try r.u8())
                case (2, DWARFForm.data2): directory = UInt64(try r.u16le())
                default: try format.skip(form: form, in: &r)
                }
            }
            // An entry without a readable path still occupies its index.
            result.append(FileEntry(name: name ?? .line(Int.max), directoryIndex: directory))
        }
        return result
    }

    mutating func run(_ r: inout ByteReader, parameters p: Parameters, addressSize: Int) throws {
        var address: UInt64 = 0, opIndex: UInt64 = 0, file: UInt64 = 1, line: UInt32 = 1, column: UInt32 = 0
        var sequenceStart = 0
        let maxOps = p.maximumOperationsPerInstruction
        let minLength = p.minimumInstructionLength

        func reset() {
            address = 0; opIndex = 0; file = 1; line = 1; column = 0
        }
        func advance(_ operationAdvance: UInt64) {
            if maxOps == 1 {
                address = address &+ minLength &* operationAdvance
            } else {
                let total = opIndex &+ operationAdvance
                address = address &+ minLength &* (total / maxOps)
                opIndex = total % maxOps
            }
        }
        func emit(end: Bool) {
            rows.append(DWARFLineRow(address: address, line: line, column: column, file: file, isEndSequence: end))
        }

        while !r.isAtEnd {
            let opcode = try r.u8()
            if opcode >= p.opcodeBase {
                guard p.lineRange != 0 else { throw BinaryError.invalid(at: r.offset - 1, "special opcode with a line range of 0") }
                let adjusted = UInt64(opcode - p.opcodeBase)
                advance(adjusted / p.lineRange)
                line = UInt32(truncatingIfNeeded: Int64(line) &+ p.lineBase &+ Int64(adjusted % p.lineRange))
                emit(end: false)
                continue
            }
            switch opcode {
            case 0:
                let length = try r.uleb128()
                guard length >= 1, length <= UInt64(r.remaining) else {
                    throw BinaryError.invalid(at: r.offset, "extended opcode length \(length) runs past the table")
                }
                let next = r.offset + Int(length)
                let sub = try r.u8()
                switch sub {
                case 1:  // DW_LNE_end_sequence
                    emit(end: true)
                    if rows.count - sequenceStart >= 2, rows[sequenceStart].address < address {
                        sequences.append(sequenceStart ..< rows.count)
                    }
                    sequenceStart = rows.count
                    reset()
                case 2:  // DW_LNE_set_address
                    let width = Int(length) - 1
                    address = try r.uintLE(byteCount: [1, 2, 4, 8].contains(width) ? width : addressSize)
                    opIndex = 0
                case 3:  // DW_LNE_define_file (before DWARF 5)
                    let start = r.offset
                    while try r.u8() != 0 {}
                    let directory = try r.uleb128()
                    files.append(FileEntry(name: .line(start), directoryIndex: directory))
                default:
                    break  // DW_LNE_set_discriminator and vendor opcodes carry nothing we need
                }
                r.offset = next
            case 1:  // DW_LNS_copy
                emit(end: false)
            case 2:  // DW_LNS_advance_pc
                advance(try r.uleb128())
            case 3:  // DW_LNS_advance_line
                line = UInt32(truncatingIfNeeded: Int64(line) &+ (try r.sleb128()))
            case 4:  // DW_LNS_set_file
                file = try r.uleb128()
            case 5:  // DW_LNS_set_column
                column = UInt32(truncatingIfNeeded: try r.uleb128())
            case 8:  // DW_LNS_const_add_pc
                guard p.lineRange != 0 else { break }
                advance(UInt64(255 - p.opcodeBase) / p.lineRange)
            case 9:  // DW_LNS_fixed_advance_pc
                address = address &+ UInt64(try r.u16le())
                opIndex = 0
            case 6, 7, 10, 11:  // negate_stmt, basic_block, prologue_end, epilogue_begin
                break
            default:  // DW_LNS_set_isa and opcodes this reader does not know: skip their operands
                let operands = Int(opcode) - 1 < p.standardOpcodeLengths.count ? p.standardOpcodeLengths[Int(opcode) - 1] : 0
                for _ in 0 ..< operands { _ = try r.uleb128() }
            }
        }
        // A final sequence without DW_LNE_end_sequence is dropped, as llvm-symbolizer does.
        rows.removeSubrange(sequenceStart...)
    }
}
