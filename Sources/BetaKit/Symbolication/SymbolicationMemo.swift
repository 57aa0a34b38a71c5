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
        // Strings of an index's string table by offset: function names (raw and as displayed) and
        // file paths (displayed as they are).
        var names: [NameKey: (raw: String, shown: String)] = [:]
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
                let name = try string(in: index, at: raw.function, demangling: true)
                found.append(SymbolicatedReport.Location(function: name?.shown, rawFunction: name?.raw,
                                                         file: try string(in: index, at: raw.file, demangling: false)?.raw,
                                                         line: raw.line, column: raw.column, inlined: raw.isInlined,
                                                         symbolOffset: raw.symbolOffset))
            }
            if locations.count >= SymbolicationMemo.maxLocations { locations.removeAll() }
            locations[key] = found
            return found
        }

        private mutating func string(in index: SymbolIndex, at offset: UInt32, demangling: Bool) throws(SymbolicationError)
            -> (raw: String, shown: String)? {
            guard offset != SymbolIndexFormat.none else { return nil }
            let key = NameKey(index: ObjectIdentifier(index), offset: offset, demangled: demangling)
            if let known = names[key] { return known }
            guard let raw = try index.string(at: offset) else { return nil }
            let string = (raw: raw, shown: demangling ? SymbolDemangler.demangle(raw) : raw)
            if names.count >= SymbolicationMemo.maxNames { names.removeAll() }
            names[key] = string
            return string
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
        /// Function names are shown demangled, file paths as they are (one string may be both).
        var demangled: Bool
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
            }
            tables.images[uuid] = nil
        }
    }
}
