#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import Synchronization

/// What a `Symbolicator` has already worked out: the symbols of each image, the locations of
/// each looked-up address, and names. Crash reports of one build repeat images, addresses and
/// functions, so a batch pays for each of them once.
final class SymbolicationMemo: Sendable {
    /// The tables, used under the memo's lock (taken once per report, not once per frame).
    struct Tables {
        var images: [UUID: Symbolicator.ImageSymbols] = [:]
        var locations: [LocationKey: [SymbolicatedReport.Location]] = [:]
        // Raw and displayed function names and file paths, by string-table offset in an index.
        var names: [NameKey: (raw: String, shown: String)] = [:]
        var files: [NameKey: String] = [:]
        // Names the reports themselves carry (partially symbolicated reports).
        var reportNames: [String: String] = [:]

        init() {
            locations.reserveCapacity(128)
            names.reserveCapacity(64)
        }

        /// The locations of `offset` in `index`, with names as Apple shows them.
        mutating func locations(in index: SymbolIndex, at offset: UInt64) throws(SymbolicationError) -> [SymbolicatedReport.Location] {
            let key = LocationKey(index: ObjectIdentifier(index), offset: offset)
            if let known = locations[key] { return known }
            var found: [SymbolicatedReport.Location] = []
            for raw in try index.rawLookup(address: index.textAddress &+ offset) {
                let name = try self.name(in: index, at: raw.function)
                found.append(SymbolicatedReport.Location(function: name?.shown, rawFunction: name?.raw, file: try file(in: index, at: raw.file),
                                                         line: raw.line, column: raw.column, inlined: raw.isInlined,
                                                         symbolOffset: raw.symbolOffset))
            }
            if locations.count >= SymbolicationMemo.maxLocations { locations.removeAll() }
            locations[key] = found
            return found
        }

        private mutating func name(in index: SymbolIndex, at offset: UInt32) throws(SymbolicationError) -> (raw: String, shown: String)? {
            guard offset != SymbolIndexFormat.none else { return nil }
            let key = NameKey(index: ObjectIdentifier(index), offset: offset)
            if let known = names[key] { return known }
            guard let raw = try index.string(at: offset) else { return nil }
            let name = (raw: raw, shown: SymbolDemangler.demangle(raw))
            if names.count >= SymbolicationMemo.maxNames { names.removeAll() }
            names[key] = name
            return name
        }

        private mutating func file(in index: SymbolIndex, at offset: UInt32) throws(SymbolicationError) -> String? {
            guard offset != SymbolIndexFormat.none else { return nil }
            let key = NameKey(index: ObjectIdentifier(index), offset: offset)
            if let known = files[key] { return known }
            guard let path = try index.string(at: offset) else { return nil }
            if files.count >= SymbolicationMemo.maxNames { files.removeAll() }
            files[key] = path
            return path
        }

        /// `SymbolDemangler.demangle(raw)`, worked out once per name.
        mutating func demangled(_ raw: String) -> String {
            if let known = reportNames[raw] { return known }
            let shown = SymbolDemangler.demangle(raw)
            if reportNames.count >= SymbolicationMemo.maxNames { reportNames.removeAll() }
            reportNames[raw] = shown
            return shown
        }
    }

    struct NameKey: Hashable {
        var index: ObjectIdentifier
        var offset: UInt32
    }

    struct LocationKey: Hashable {
        var index: ObjectIdentifier
        var offset: UInt64
    }

    // Past these sizes the tables start over, which bounds the memory of a long-running server.
    static let maxLocations = 1 << 18
    static let maxNames = 1 << 16

    private let tables = Mutex(Tables())

    /// Runs `body` with the tables locked.
    func withTables<T>(_ body: (inout Tables) throws -> T) rethrows -> T {
        try tables.withLock { try body(&$0) }
    }

    func image(_ uuid: UUID) -> Symbolicator.ImageSymbols? { tables.withLock { $0.images[uuid] } }

    func remember(_ uuid: UUID, _ symbols: Symbolicator.ImageSymbols) { tables.withLock { $0.images[uuid] = symbols } }

    /// Forgets an image and everything looked up in its index.
    func forget(_ uuid: UUID) {
        tables.withLock { tables in
            if case let .indexed(index) = tables.images[uuid] {
                let identifier = ObjectIdentifier(index)
                tables.locations = tables.locations.filter { $0.key.index != identifier }
                tables.names = tables.names.filter { $0.key.index != identifier }
                tables.files = tables.files.filter { $0.key.index != identifier }
            }
            tables.images[uuid] = nil
        }
    }
}
