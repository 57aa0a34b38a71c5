// memchr: the C library's vectorised byte search (no system call); the only C function used here.
#if canImport(Glibc)
import func Glibc.memchr
#elseif canImport(Darwin)
import func Darwin.memchr
#endif

/// The raw bytes of the DWARF sections one image carries.
///
/// The buffers are borrowed: whoever built this value keeps the underlying file
/// (usually a memory mapping) alive while it is used. A missing section is empty.
public struct DWARFSections {
    /// `__debug_info`: the tree of debugging information entries.
    public var info: UnsafeRawBufferPointer
    /// `__debug_abbrev`: the abbreviation tables that describe entry layouts.
    public var abbrev: UnsafeRawBufferPointer
    /// `__debug_line`: the line-number programs.
    public var line: UnsafeRawBufferPointer
    /// `__debug_str`: strings referenced by offset or index.
    public var str: UnsafeRawBufferPointer
    /// `__debug_line_str` (DWARF 5): strings of line-table headers.
    public var lineStr: UnsafeRawBufferPointer
    /// `__debug_str_offsets` (DWARF 5), stored in Mach-O as `__debug_str_offs`.
    public var strOffsets: UnsafeRawBufferPointer
    /// `__debug_addr` (DWARF 5): the address pool for `DW_FORM_addrx*`.
    public var addr: UnsafeRawBufferPointer
    /// `__debug_ranges` (DWARF 2 to 4).
    public var ranges: UnsafeRawBufferPointer
    /// `__debug_rnglists` (DWARF 5).
    public var rnglists: UnsafeRawBufferPointer


    /// Sections by their DWARF names without the leading dot or underscores (`debug_info`, `debug_str_offsets`).
    public init(named sections: [String: UnsafeRawBufferPointer]) {
        func get(_ name: String) -> UnsafeRawBufferPointer { sections[name] ?? UnsafeRawBufferPointer(start: nil, count: 0) }
        info = get("debug_info")
        abbrev = get("debug_abbrev")
        line = get("debug_line")
        str = get("debug_str")
        lineStr = get("debug_line_str")
        strOffsets = get("debug_str_offsets")
        addr = get("debug_addr")
        ranges = get("debug_ranges")
        rnglists = get("debug_rnglists")
    }

    /// The DWARF sections of a Mach-O image (a dSYM's DWARF file or an object file), read from
    /// `bytes`, the slice `image` was parsed from. Mach-O cuts section names at 16 characters,
    /// so `__debug_str_offsets` is found as `__debug_str_offs`.
    public init(image: MachOImage, bytes: UnsafeRawBufferPointer) {
        var found: [String: UnsafeRawBufferPointer] = [:]
        for segment in image.segments {
            for section in segment.sections where section.name.hasPrefix("__debug_") {
                guard let contents = MachOImage.contents(of: section, in: bytes) else { continue }
                let name = String(section.name.dropFirst(2))
                let full = name == "debug_str_offs" ? "debug_str_offsets" : name
                if found[full] == nil { found[full] = contents }
            }
        }
        self.init(named: found)
    }

    /// Whether there is any debugging information to read.
    public var hasDebugInfo: Bool { info.count > 0 && abbrev.count > 0 }

    /// The name Apple's tools use for a section, for error messages.
    static func machOName(_ dwarfName: String) -> String {
        "__" + (dwarfName == "debug_str_offsets" ? "debug_str_offs" : dwarfName)
    }
}

extension DWARFSections {
    /// The bytes of the NUL-terminated string at `ref`, without the terminator, or nil when the
    /// reference points outside its section or the string does not end inside it.
    public func bytes(of ref: DWARFStringRef) -> UnsafeRawBufferPointer? {
        let section: UnsafeRawBufferPointer, offset: Int
        switch ref {
        case let .info(o): section = info; offset = o
        case let .str(o): section = str; offset = o
        case let .lineStr(o): section = lineStr; offset = o
        case let .line(o): section = line; offset = o
        }
        guard offset >= 0, offset < section.count, let base = section.baseAddress else { return nil }
        let start = base + offset
        guard let end = memchr(start, 0, section.count - offset) else { return nil }
        return UnsafeRawBufferPointer(start: start, count: UnsafeRawPointer(end) - start)
    }

    /// The string at `ref`, decoded as UTF-8 (invalid sequences are repaired).
    public func string(_ ref: DWARFStringRef) -> String? {
        bytes(of: ref).map { String(decoding: $0, as: UTF8.self) }
    }
}
