extension SymbolIndex {
    /// Bounds-checked record access over the mapping, for the duration of one lookup.
    struct Reader {
        typealias Section = SymbolIndexFormat.Section
        let index: SymbolIndex
        let bytes: UnsafeRawBufferPointer

        // Inlining chains deeper than this only come from corrupt parent links.
        static let maxChain = 512

        func corrupt(_ reason: String) -> SymbolicationError {
            .corruptIndex(path: index.path, reason: reason)
        }

        func count(_ section: Section) -> Int { index.tables[Int(section.rawValue)].count }

        @inline(__always)
        func field<T: FixedWidthInteger>(_ section: Section, _ record: Int, _ offset: Int, as: T.Type) -> T {
            let table = index.tables[Int(section.rawValue)]
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: table.offset + record * section.recordSize + offset, as: T.self))
        }

        func string(at offset: UInt32) throws(SymbolicationError) -> String? {
            guard offset != SymbolIndexFormat.none else { return nil }
            let table = index.tables[Int(Section.strings.rawValue)]
            guard Int(offset) < table.count, let base = bytes.baseAddress else { throw corrupt("string offset \(offset) is out of range") }
            let rest = UnsafeRawBufferPointer(start: base + table.offset + Int(offset), count: table.count - Int(offset))
            guard let end = rest.firstIndex(of: 0) else { throw corrupt("a string is not terminated") }
            return String(decoding: UnsafeRawBufferPointer(rebasing: rest[..<end]), as: UTF8.self)
        }

        /// The string offset of source file `id`.
        func filePathOffset(_ id: UInt32) throws(SymbolicationError) -> UInt32 {
            guard id != SymbolIndexFormat.none else { return SymbolIndexFormat.none }
            guard Int(id) < count(.files) else { throw corrupt("file \(id) is out of range") }
            return field(.files, Int(id), 0, as: UInt32.self)
        }

        /// The last record among the first `count` whose first field (a `UInt64` address) is <= `address`.
        func lastAtOrBelow(_ section: Section, _ address: UInt64, from lower: Int = 0, to upper: Int) -> Int? {
            var low = lower, high = upper
            while low < high {
                let mid = low + (high - low) / 2
                if field(section, mid, 0, as: UInt64.self) <= address { low = mid + 1 } else { high = mid }
            }
            return low > lower ? low - 1 : nil
        }

        mutating func lookup(_ address: UInt64) throws(SymbolicationError) -> [RawLocation] {
            let row = try lineRow(address)
            let none = SymbolIndexFormat.none
            var frames: [RawLocation] = []
            // Innermost node first, then each parent: the outer frames take their file and line
            // from the call site recorded in the node inside them.
            var node = try innermostNode(address) ?? -1
            var inner = -1
            while node >= 0 {
                guard frames.count < Self.maxChain, node < count(.nodes) else { throw corrupt("a node's parent chain is broken") }
                var location = RawLocation(function: field(.nodes, node, 0, as: UInt32.self), file: none, line: 0, column: 0, isInlined: true)
                if inner < 0 {
                    if let row {
                        location.file = try filePathOffset(row.file)
                        location.line = Int(row.line)
                        location.column = Int(row.column)
                    }
                } else {
                    location.file = try filePathOffset(field(.nodes, inner, 20, as: UInt32.self))
                    location.line = Int(field(.nodes, inner, 24, as: UInt32.self))
                    location.column = Int(field(.nodes, inner, 28, as: UInt32.self))
                }
                frames.append(location)
                inner = node
                node = Int(field(.nodes, node, 4, as: Int32.self))
            }
            if frames.isEmpty {
                frames.append(RawLocation(function: none, file: try row.map { r throws(SymbolicationError) in try filePathOffset(r.file) } ?? none,
                                          line: row.map { Int($0.line) } ?? 0, column: row.map { Int($0.column) } ?? 0, isInlined: false))
            }
            frames[frames.count - 1].isInlined = false
            if let (symbol, start) = symbolName(address) {
                frames[frames.count - 1].function = symbol
                frames[frames.count - 1].symbolOffset = address &- start
            }
            if frames.count == 1, frames[0].function == none, frames[0].file == none { return [] }
            return frames
        }

        struct Row {
            var file: UInt32
            var line: UInt32
            var column: UInt32
        }

        /// The line row covering `address`: within the sequence that contains it, the last row at or
        /// before it (llvm picks the last of several rows sharing an address).
        func lineRow(_ address: UInt64) throws(SymbolicationError) -> Row? {
            let sequences = count(.sequences)
            guard var candidate = lastAtOrBelow(.sequences, address, to: sequences) else { return nil }
            var steps = 0
            while candidate >= 0, field(.sequences, candidate, 16, as: UInt64.self) > address, steps < 1 << 16 {
                let low = field(.sequences, candidate, 0, as: UInt64.self), high = field(.sequences, candidate, 8, as: UInt64.self)
                if low <= address && address < high {
                    let first = Int(field(.sequences, candidate, 24, as: UInt32.self))
                    let rows = Int(field(.sequences, candidate, 28, as: UInt32.self))
                    guard rows >= 2, first <= count(.rowAddresses) - rows else { throw corrupt("sequence \(candidate) points outside the rows") }
                    // The end row only marks where the sequence stops; row addresses are relative to `low`.
                    let target = UInt32(truncatingIfNeeded: address - low)
                    var lower = first, upper = first + rows - 1
                    while lower < upper {
                        let mid = lower + (upper - lower) / 2
                        if field(.rowAddresses, mid, 0, as: UInt32.self) <= target { lower = mid + 1 } else { upper = mid }
                    }
                    let row = lower > first ? lower - 1 : first
                    return Row(file: field(.rowInfo, row, 0, as: UInt32.self), line: field(.rowInfo, row, 4, as: UInt32.self),
                               column: UInt32(field(.rowInfo, row, 8, as: UInt16.self)))
                }
                candidate -= 1
                steps += 1
            }
            return nil
        }

        /// The innermost subroutine whose ranges contain `address`: among all candidates, the one
        /// latest in depth-first order, which is the one llvm-symbolizer's address map keeps.
        func innermostNode(_ address: UInt64) throws(SymbolicationError) -> Int? {
            let roots = count(.roots), nodes = count(.nodes)
            guard var candidate = lastAtOrBelow(.roots, address, to: roots) else { return nil }
            var best: Int?
            var steps = 0
            while candidate >= 0, field(.roots, candidate, 16, as: UInt64.self) > address, steps < 1 << 16 {
                let low = field(.roots, candidate, 0, as: UInt64.self), high = field(.roots, candidate, 8, as: UInt64.self)
                if low <= address && address < high {
                    let root = Int(field(.roots, candidate, 24, as: UInt32.self))
                    guard root < nodes else { throw corrupt("root \(candidate) names node \(root) of \(nodes)") }
                    let found = try deepest(in: root, address)
                    if found > best ?? -1 { best = found }
                }
                candidate -= 1
                steps += 1
            }
            return best
        }

        private func deepest(in root: Int, _ address: UInt64) throws(SymbolicationError) -> Int {
            let nodes = count(.nodes)
            let end = Int(field(.nodes, root, 8, as: UInt32.self))
            guard end > root, end <= nodes else { throw corrupt("node \(root) has a bad subtree end") }
            var best = root
            var node = root + 1
            while node < end {
                let rangeCount = Int(field(.nodes, node, 16, as: UInt32.self))
                if rangeCount == 0 {
                    node += 1  // kept only for its children
                    continue
                }
                if try contains(node, address, rangeCount: rangeCount) {
                    best = node
                    node += 1
                } else {
                    let skip = Int(field(.nodes, node, 8, as: UInt32.self))
                    guard skip > node, skip <= end else { throw corrupt("node \(node) has a bad subtree end") }
                    node = skip
                }
            }
            return best
        }

        private func contains(_ node: Int, _ address: UInt64, rangeCount: Int) throws(SymbolicationError) -> Bool {
            let start = Int(field(.nodes, node, 12, as: UInt32.self))
            guard start <= count(.nodeRanges), rangeCount <= count(.nodeRanges) - start else { throw corrupt("node \(node) has bad ranges") }
            for range in start ..< start + rangeCount {
                if field(.nodeRanges, range, 0, as: UInt64.self) <= address && address < field(.nodeRanges, range, 8, as: UInt64.self) {
                    return true
                }
            }
            return false
        }

        /// The symbol-table name (a string offset) covering `address` and where that symbol starts, if any.
        func symbolName(_ address: UInt64) -> (UInt32, UInt64)? {
            guard let symbol = lastAtOrBelow(.symbols, address, to: count(.symbols)) else { return nil }
            let end = field(.symbols, symbol, 8, as: UInt64.self)
            let start = field(.symbols, symbol, 0, as: UInt64.self)
            let name = field(.symbols, symbol, 16, as: UInt64.self)
            guard address < end || end == start, name < UInt64(SymbolIndexFormat.none) else { return nil }
            return (UInt32(name), start)
        }
    }
}
