/// One defined symbol from a Mach-O `nlist`/`nlist_64` table.
public struct MachOSymbol: Sendable, Equatable {
    /// The raw symbol name, with the leading underscore C compilers add (`_main`, `_$s4Demo3fooyyF`).
    public var name: String
    /// The symbol's address in the image's preferred layout. For Thumb functions the low bit is cleared.
    public var address: UInt64
    /// The 1-based section number (`n_sect`).
    public var sectionNumber: UInt8
    /// Whether the symbol is visible outside its image (`N_EXT`).
    public var isExternal: Bool
    /// Whether the symbol marks a Thumb (16-bit ARM) function (`N_ARM_THUMB_DEF`).
    public var isThumb: Bool

    /// Creates a symbol.
    public init(name: String, address: UInt64, sectionNumber: UInt8, isExternal: Bool, isThumb: Bool = false) {
        self.name = name
        self.address = address
        self.sectionNumber = sectionNumber
        self.isExternal = isExternal
        self.isThumb = isThumb
    }
}

extension MachOImage {
    // n_type bits (mach-o/nlist.h).
    static let nStab: UInt8 = 0xe0
    static let nTypeMask: UInt8 = 0x0e
    static let nSect: UInt8 = 0x0e
    static let nExt: UInt8 = 0x01
    static let nArmThumbDef: UInt16 = 0x0008

    /// The sections in `n_sect` order: Mach-O numbers sections from 1 across all segments in load-command order.
    public var sectionsInSymbolOrder: [Section] {
        segments.flatMap(\.sections)
    }

    /// The defined symbols in the LC_SYMTAB table of `image` (the slice this image was parsed from),
    /// sorted by address; symbols sharing an address keep their table order.
    ///
    /// Debugger stabs (`N_STAB`: the debug map dsymutil reads) and undefined, absolute and
    /// indirect symbols are skipped: only symbols that name a place inside a section remain.
    /// With `codeOnly`, only symbols inside the `__TEXT` segment are kept, which is what a
    /// symbolicator falls back to when DWARF has nothing.
    public func definedSymbols(in image: UnsafeRawBufferPointer, codeOnly: Bool = false) throws(MachOError) -> [MachOSymbol] {
        guard let table = symbolTable else { return [] }
        let entrySize = is64Bit ? 16 : 12
        let sections = sectionsInSymbolOrder
        let stringStart = Int(table.stringOffset), stringSize = Int(table.stringSize)
        guard stringStart <= image.count, stringSize <= image.count - stringStart else {
            throw MachOError.malformed("the string table at \(stringStart) (\(stringSize) bytes) lies outside the \(image.count)-byte image")
        }
        let strings = UnsafeRawBufferPointer(rebasing: image[stringStart ..< stringStart + stringSize])
        let count = Int(table.symbolCount)
        guard count <= (image.count - min(image.count, Int(table.symbolOffset))) / entrySize else {
            throw MachOError.malformed("the symbol table claims \(count) entr\(count == 1 ? "y" : "ies") at \(table.symbolOffset), more than fit in the \(image.count)-byte image")
        }
        var reader: ByteReader
        do {
            reader = try ByteReader(image).slice(at: Int(table.symbolOffset), count: count * entrySize)
        } catch {
            throw MachOError.malformed("symbol table: \(error)")
        }
        var symbols: [MachOSymbol] = []
        symbols.reserveCapacity(min(count, 1 << 20))
        do {
            for _ in 0 ..< count {
                let nameOffset = Int(try reader.u32le())
                let type = try reader.u8()
                let section = try reader.u8()
                let desc = try reader.u16le()
                let value = is64Bit ? try reader.u64le() : UInt64(try reader.u32le())
                guard type & Self.nStab == 0, type & Self.nTypeMask == Self.nSect, section != 0 else { continue }
                if codeOnly {
                    guard Int(section) <= sections.count, sections[Int(section) - 1].segmentName == "__TEXT" else { continue }
                }
                guard nameOffset < strings.count else { continue }
                var nameReader = ByteReader(strings, offset: nameOffset)
                guard let name = try? nameReader.cString(), !name.isEmpty else { continue }
                let thumb = !is64Bit && desc & Self.nArmThumbDef != 0
                symbols.append(MachOSymbol(name: name, address: thumb ? value & ~1 : value, sectionNumber: section,
                                           isExternal: type & Self.nExt != 0, isThumb: thumb))
            }
        } catch {
            throw MachOError.malformed("symbol table: \(error)")
        }
        // Sort on (address, table position) so the order is stable whatever the sort algorithm.
        return symbols.enumerated().sorted { ($0.element.address, $0.offset) < ($1.element.address, $1.offset) }.map(\.element)
    }
}
