/// One row of a line-number matrix.
public struct DWARFLineRow: Sendable, Equatable {
    /// The instruction address.
    public var address: UInt64
    /// The source line (0 when the compiler could not attribute the code to a line).
    public var line: UInt32
    /// The source column (0 = unknown).
    public var column: UInt32
    /// The file register: an index into the table's file entries.
    public var file: UInt64
    /// Whether this row only marks the end of a sequence (one past its last instruction).
    public var isEndSequence: Bool

    /// Creates a row.
    public init(address: UInt64, line: UInt32, column: UInt32, file: UInt64, isEndSequence: Bool) {
        self.address = address
        self.line = line
        self.column = column
        self.file = file
        self.isEndSequence = isEndSequence
    }
}

/// A line-number program (`.debug_line`, versions 2 to 5), decoded into rows.
public struct DWARFLineTable: Sendable {
    /// A file entry of the header.
    public struct FileEntry: Sendable, Equatable {
        /// The file name as written (may be relative).
        public var name: DWARFStringRef
        /// Index into `includeDirectories` (1-based before DWARF 5, 0-based from DWARF 5).
        public var directoryIndex: UInt64
    }

    /// Where the table starts in `.debug_line`.
    public var offset: Int
    /// The table's version (2 to 5).
    public var version: UInt16
    /// The include directories (from DWARF 5, entry 0 is the compilation directory).
    public var includeDirectories: [DWARFStringRef]
    /// The file entries (from DWARF 5, entry 0 is the primary source file).
    public var files: [FileEntry]
    /// Every row, in program order; sequences end with an end-sequence row.
    public var rows: [DWARFLineRow]
    /// The valid sequences as row index ranges (including the end row), each with a non-empty address range.
    public var sequences: [Range<Int>]

    /// The file entry the file register value `index` selects, if it exists.
    public func file(_ index: UInt64) -> FileEntry? {
        if version >= 5 {
            return index < UInt64(files.count) ? files[Int(index)] : nil
        }
        return index >= 1 && index <= UInt64(files.count) ? files[Int(index - 1)] : nil
    }

    /// The absolute path of file register value `index`, composed the way llvm-symbolizer does:
    /// compilation directory, then include directory, then file name, stopping at the first
    /// absolute component.
    public func path(ofFile index: UInt64, compilationDirectory: String?, strings: DWARFSections) -> String? {
        guard let entry = file(index), let name = strings.string(entry.name) else { return nil }
        if name.hasPrefix("/") { return name }
        var directory = ""
        if version >= 5 {
            if entry.directoryIndex < UInt64(includeDirectories.count) {
                directory = strings.string(includeDirectories[Int(entry.directoryIndex)]) ?? ""
            }
        } else if entry.directoryIndex > 0 && entry.directoryIndex <= UInt64(includeDirectories.count) {
            directory = strings.string(includeDirectories[Int(entry.directoryIndex - 1)]) ?? ""
        }
        var path = ""
        if version < 5 || entry.directoryIndex != 0, let compDir = compilationDirectory, !compDir.isEmpty, !directory.hasPrefix("/") {
            Self.append(&path, compDir)
        }
        if !directory.isEmpty { Self.append(&path, directory) }
        Self.append(&path, name)
        return path
    }

    // Joins like llvm::sys::path::append so paths compare equal to llvm-symbolizer's.
    static func append(_ path: inout String, _ component: String) {
        if path.hasSuffix("/") {
            path += component.drop { $0 == "/" }
            return
        }
        if !component.hasPrefix("/") && !path.isEmpty { path += "/" }
        path += component
    }
}
