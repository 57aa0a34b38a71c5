#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import Synchronization

/// What a `Symbolicator` has already worked out: the symbols of each image, the locations of
/// each looked-up address, and demangled names. Crash reports of one build repeat images,
/// addresses and functions, so a batch pays for each of them once.
final class SymbolicationMemo: Sendable {
    private struct State {
        var images: [UUID: Symbolicator.ImageSymbols] = [:]
        var locations: [LocationKey: [SymbolicatedReport.Location]] = [:]
        var names: [String: String] = [:]
    }

    private struct LocationKey: Hashable {
        var index: ObjectIdentifier
        var offset: UInt64
    }

    // Past these sizes the tables start over, which bounds the memory of a long-running server.
    static let maxLocations = 1 << 18
    static let maxNames = 1 << 16

    private let state = Mutex(State())

    func image(_ uuid: UUID) -> Symbolicator.ImageSymbols? { state.withLock { $0.images[uuid] } }

    func remember(_ uuid: UUID, _ symbols: Symbolicator.ImageSymbols) { state.withLock { $0.images[uuid] = symbols } }

    /// Forgets an image and every location looked up in its index.
    func forget(_ uuid: UUID) {
        state.withLock { state in
            if case let .indexed(index) = state.images[uuid] {
                let identifier = ObjectIdentifier(index)
                state.locations = state.locations.filter { $0.key.index != identifier }
            }
            state.images[uuid] = nil
        }
    }

    /// The locations of `offset` in `index`, with names as Apple shows them.
    func locations(in index: SymbolIndex, at offset: UInt64) throws(SymbolicationError) -> [SymbolicatedReport.Location] {
        let key = LocationKey(index: ObjectIdentifier(index), offset: offset)
        if let known = state.withLock({ $0.locations[key] }) { return known }
        let found = try index.lookup(imageOffset: offset)
        let locations = found.map { location in
            SymbolicatedReport.Location(function: location.function.map(demangled), rawFunction: location.function, file: location.file,
                                        line: location.line, column: location.column, inlined: location.isInlined,
                                        symbolOffset: location.symbolOffset)
        }
        state.withLock { state in
            if state.locations.count >= Self.maxLocations { state.locations.removeAll() }
            state.locations[key] = locations
        }
        return locations
    }

    /// `SymbolDemangler.demangle(raw)`, worked out once per name.
    func demangled(_ raw: String) -> String {
        if let known = state.withLock({ $0.names[raw] }) { return known }
        let shown = SymbolDemangler.demangle(raw)
        state.withLock { state in
            if state.names.count >= Self.maxNames { state.names.removeAll() }
            state.names[raw] = shown
        }
        return shown
    }
}
