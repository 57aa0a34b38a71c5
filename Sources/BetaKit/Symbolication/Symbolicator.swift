#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Resolves crash report frames to functions, files and lines.
///
/// Symbol files come from a `SymbolFileLocator` (explicit `--dsym` paths, later the release
/// archive); their indexes come from a `SymbolIndexCache`, built on first use.
public struct Symbolicator: Sendable {
    /// Where symbol files are found.
    public var locator: any SymbolFileLocator
    /// Where their indexes are kept.
    public var cache: SymbolIndexCache

    /// Creates a symbolicator.
    public init(locator: any SymbolFileLocator, cache: SymbolIndexCache) {
        self.locator = locator
        self.cache = cache
    }

    /// Symbolicates every frame of `report`. Images without symbols are listed in the result,
    /// never an error; `progress` hears about index builds for images seen for the first time.
    public func symbolicate(_ report: CrashReport, progress: (@Sendable (SymbolIndexProgress) -> Void)? = nil) async throws -> SymbolicatedReport {
        var indexes: [Int: SymbolIndex] = [:]
        var missing: [Int: String] = [:]
        var used = Set<Int>()
        for frame in report.threads.flatMap(\.frames) + (report.lastExceptionBacktrace ?? []) {
            if let index = imageIndex(of: frame, in: report) { used.insert(index) }
        }
        for index in used.sorted() {
            let image = report.images[index]
            guard let uuid = image.uuid else {
                missing[index] = "the report gives no UUID for it"
                continue
            }
            do {
                guard let file = try locator.symbolFile(for: uuid, architecture: image.architecture.flatMap(MachOArchitecture.init(name:))) else {
                    missing[index] = "no dSYM with this UUID was given or archived"
                    continue
                }
                indexes[index] = try await cache.index(for: file, progress: progress)
            } catch let error as CancellationError {
                throw error
            } catch {
                missing[index] = "\(error)"
            }
        }

        var names: [String: String] = [:]  // raw -> demangled, as frames repeat functions
        var result = SymbolicatedReport(report: report, threads: [], lastExceptionBacktrace: nil, imagesWithoutSymbols: [],
                                        signature: CrashSignature(exceptionType: "", frames: []))
        for thread in report.threads {
            var frames: [SymbolicatedReport.Frame] = []
            for frame in thread.frames {
                // Frame 0 is where the thread stopped; the others are return addresses.
                frames.append(try await resolve(frame, isReturnAddress: frame.number > 0, report: report, indexes: &indexes, missing: &missing, names: &names))
            }
            result.threads.append(.init(number: thread.number, name: thread.name, queue: thread.queue, crashed: thread.crashed, frames: frames))
        }
        if let backtrace = report.lastExceptionBacktrace {
            var frames: [SymbolicatedReport.Frame] = []
            for frame in backtrace {
                // Every exception backtrace entry is a return address recorded by the throw.
                frames.append(try await resolve(frame, isReturnAddress: true, report: report, indexes: &indexes, missing: &missing, names: &names))
            }
            result.lastExceptionBacktrace = frames
        }
        result.imagesWithoutSymbols = missing.keys.sorted().map { index in
            let image = report.images[index]
            return .init(name: image.name, uuid: image.uuid, isAppImage: report.isAppImage(image), reason: missing[index] ?? "")
        }.sorted { ($0.isAppImage ? 0 : 1, $0.name) < ($1.isAppImage ? 0 : 1, $1.name) }
        result.signature = CrashSignature(result)
        return result
    }

    private func imageIndex(of frame: CrashReport.Frame, in report: CrashReport) -> Int? {
        if let index = frame.imageIndex, report.images.indices.contains(index) { return index }
        return report.images.firstIndex { $0.contains(frame.address) }
    }

    private func resolve(_ frame: CrashReport.Frame, isReturnAddress: Bool, report: CrashReport,
                         indexes: inout [Int: SymbolIndex], missing: inout [Int: String],
                         names: inout [String: String]) async throws -> SymbolicatedReport.Frame {
        guard let imageIndex = imageIndex(of: frame, in: report) else {
            return .init(frame: frame, image: nil, imageOffset: nil, locations: reportLocations(frame), status: frame.symbol == nil ? .noImage : .fromReport)
        }
        let image = report.images[imageIndex]
        let offset: UInt64? = frame.address >= image.loadAddress ? frame.address - image.loadAddress : nil
        var result = SymbolicatedReport.Frame(frame: frame, image: image, imageOffset: offset, locations: [], status: .noSymbols)
        guard let index = indexes[imageIndex], let offset else {
            result.locations = reportLocations(frame)
            if !result.locations.isEmpty { result.status = .fromReport }
            return result
        }
        let lookupOffset = Self.lookupOffset(offset, isReturnAddress: isReturnAddress, architecture: index.architecture)
        var found: [SymbolicatedLocation]
        do {
            found = try index.lookup(imageOffset: lookupOffset)
        } catch {
            // A damaged index: drop it and rebuild once from the dSYM.
            await cache.discard(uuid: index.uuid, architecture: index.architecture)
            guard let uuid = image.uuid, let file = try? locator.symbolFile(for: uuid, architecture: index.architecture),
                  let rebuilt = try? await cache.index(for: file) else {
                indexes[imageIndex] = nil
                missing[imageIndex] = "\(error)"
                return result
            }
            indexes[imageIndex] = rebuilt
            found = (try? rebuilt.lookup(imageOffset: lookupOffset)) ?? []
        }
        func display(_ raw: String) -> String {
            if let known = names[raw] { return known }
            let shown = SymbolDemangler.demangle(raw)
            names[raw] = shown
            return shown
        }
        result.locations = found.map { location in
            .init(function: location.function.map(display), rawFunction: location.function, file: location.file,
                  line: location.line, column: location.column, inlined: location.isInlined, symbolOffset: location.symbolOffset)
        }
        result.status = result.locations.isEmpty ? .notFound : .symbolicated
        if result.locations.isEmpty, !reportLocations(frame).isEmpty {
            result.locations = reportLocations(frame)
            result.status = .fromReport
        }
        return result
    }

    /// The offset to look up for a frame. Return addresses point after the call, possibly into the
    /// next function, so callers are looked up one byte earlier, as Apple's tools do. 32-bit ARM
    /// return addresses carry the Thumb bit, which is cleared first: otherwise "minus one" only
    /// undoes the bit and lands on the instruction after the call.
    public static func lookupOffset(_ offset: UInt64, isReturnAddress: Bool, architecture: MachOArchitecture) -> UInt64 {
        let isARM32 = architecture.cpuType == MachOArchitecture.armv7.cpuType
        let address = isARM32 ? offset & ~1 : offset
        return isReturnAddress && address > 0 ? address - 1 : address
    }

    /// What the report itself says about a frame (partially symbolicated reports).
    private func reportLocations(_ frame: CrashReport.Frame) -> [SymbolicatedReport.Location] {
        guard let symbol = frame.symbol else { return [] }
        return [.init(function: SymbolDemangler.demangle(symbol), rawFunction: symbol, file: frame.sourceFile, line: frame.sourceLine ?? 0,
                      column: 0, inlined: false, symbolOffset: frame.symbolOffset)]
    }
}
