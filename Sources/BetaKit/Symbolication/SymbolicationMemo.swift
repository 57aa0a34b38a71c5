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
        // What was looked up in each index: a report uses one or two, so a short list is searched
        // (by identity, kept apart so that the search copies nothing).
        private var indexes: [IndexTables] = []
        private var identities: [ObjectIdentifier] = []
        // Names the reports themselves carry (partially symbolicated reports).
        var reportNames: [String: String] = [:]

        /// The locations of each looked-up offset of one index, and its strings by string-table
        /// offset: function names (raw and as displayed) and file paths (displayed as they are).
        struct IndexTables {
            let index: SymbolIndex
            var locations = OffsetMap<ResolvedAddress?>(capacity: 512)
            var functions = OffsetMap<FunctionName>(capacity: 256)
            var files = OffsetMap<String>(capacity: 32)
        }

        /// A function's raw name and the name shown for it.
        struct FunctionName {
            var raw: String
            var shown: String
        }

        private mutating func tables(for index: SymbolIndex) -> Int {
            let identity = ObjectIdentifier(index)
            if let position = identities.firstIndex(of: identity) { return position }
            indexes.append(IndexTables(index: index))
            identities.append(identity)
            return indexes.count - 1
        }

        /// The locations of `offset` in `index`, with names as Apple shows them and their frame
        /// lines rendered for image `imageName`; nil when the index knows nothing there.
        mutating func resolved(in index: SymbolIndex, at offset: UInt64, imageName: String) throws(SymbolicationError) -> ResolvedAddress? {
            let position = tables(for: index)
            // Read in place: `indexes[position]` alone would copy the tables (seven references
            // retained and released) for every frame, a fifth of a warm symbolication's time.
            if let known = indexes.withUnsafeBufferPointer({ $0[position].locations[offset] }) {
                guard let known, known.imageName != imageName else { return known }
                // The image goes by another name in this report: render for that name from now on.
                let renamed = ResolvedAddress(locations: known.locations, imageName: imageName)
                indexes[position].locations.set(renamed, for: offset)
                return renamed
            }
            var found: [SymbolicatedReport.Location] = []
            for raw in try index.rawLookup(address: index.textAddress &+ offset) {
                let name = try function(in: position, at: raw.function)
                found.append(SymbolicatedReport.Location(function: name?.shown, rawFunction: name?.raw, file: try file(in: position, at: raw.file),
                                                         line: raw.line, column: raw.column, inlined: raw.isInlined,
                                                         symbolOffset: raw.symbolOffset))
            }
            let resolved = found.isEmpty ? nil : ResolvedAddress(locations: found, imageName: imageName)
            if indexes[position].locations.count >= SymbolicationMemo.maxLocations { indexes[position].locations.removeAll() }
            indexes[position].locations.set(resolved, for: offset)
            return resolved
        }

        private mutating func function(in position: Int, at offset: UInt32) throws(SymbolicationError) -> FunctionName? {
            guard offset != SymbolIndexFormat.none else { return nil }
            if let known = indexes[position].functions[UInt64(offset)] { return known }
            guard let raw = try indexes[position].index.string(at: offset) else { return nil }
            let name = FunctionName(raw: raw, shown: SymbolDemangler.demangle(raw))
            if indexes[position].functions.count >= SymbolicationMemo.maxNames { indexes[position].functions.removeAll() }
            indexes[position].functions.set(name, for: UInt64(offset))
            return name
        }

        private mutating func file(in position: Int, at offset: UInt32) throws(SymbolicationError) -> String? {
            guard offset != SymbolIndexFormat.none else { return nil }
            if let known = indexes[position].files[UInt64(offset)] { return known }
            guard let path = try indexes[position].index.string(at: offset) else { return nil }
            if indexes[position].files.count >= SymbolicationMemo.maxNames { indexes[position].files.removeAll() }
            indexes[position].files.set(path, for: UInt64(offset))
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

        /// Forgets everything looked up in `index`.
        mutating func forget(_ index: SymbolIndex) {
            guard let position = identities.firstIndex(of: ObjectIdentifier(index)) else { return }
            indexes.remove(at: position)
            identities.remove(at: position)
        }
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
            if case let .indexed(index) = tables.images[uuid] { tables.forget(index) }
            tables.images[uuid] = nil
        }
    }
}
