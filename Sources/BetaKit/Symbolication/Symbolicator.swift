#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Resolves crash report frames to functions, files and lines.
///
/// Symbol files come from a `SymbolFileLocator` (explicit `--dsym` paths, the release archive);
/// their indexes come from a `SymbolIndexCache`, built on first use. An image indexed before is
/// found in the cache directly, without asking the locator.
///
/// One symbolicator remembers what it resolved (images, addresses, demangled names), so a
/// batch of reports from the same build pays for each address once; create a new one to
/// forget. It is synchronous and safe to share between threads.
public struct Symbolicator: Sendable {
    /// Where symbol files are found.
    public var locator: any SymbolFileLocator
    /// Where their indexes are kept.
    public var cache: SymbolIndexCache
    /// What is said of an app image no locator had symbols for; standalone use (no archive) says
    /// where it looked instead.
    public var missingAppSymbolsReason = "no dSYM with this UUID was given or archived"
    let memo = SymbolicationMemo()

    /// Creates a symbolicator.
    public init(locator: any SymbolFileLocator, cache: SymbolIndexCache) {
        self.locator = locator
        self.cache = cache
    }

    /// Symbolicates every frame of `report`. Images without symbols are listed in the result,
    /// never an error; `progress` hears about index builds for images seen for the first time.
    public func symbolicate(_ report: CrashReport, progress: (@Sendable (SymbolIndexProgress) -> Void)? = nil) throws -> SymbolicatedReport {
        var images = [ImageSymbols](repeating: .unused, count: report.images.count)
        func markUsed(_ frames: [CrashReport.Frame]) {
            // By position, field by field: `for frame in frames` would copy every frame.
            frames.withUnsafeBufferPointer { frames in
                for position in frames.indices {
                    if let index = imageIndex(frames[position].imageIndex, address: frames[position].address, in: report) { images[index] = .pending }
                }
            }
        }
        for thread in report.threads { markUsed(thread.frames) }
        markUsed(report.lastExceptionBacktrace ?? [])
        for index in images.indices {
            guard case .pending = images[index] else { continue }
            let image = report.images[index]
            images[index] = try symbols(for: image, isAppImage: report.isAppImage(image), progress: progress)
        }

        // A damaged index shows up as a failed lookup: it is rebuilt once and the report resolved again.
        var result = memo.withTables { resolveFrames(of: report, images: &images, tables: &$0, mayRebuild: true) }
        var damaged = false
        for position in images.indices {
            guard case let .damaged(index, error) = images[position] else { continue }
            damaged = true
            images[position] = try rebuilt(index, isAppImage: report.isAppImage(report.images[position]), progress: progress)
                ?? .missing("\(error)")
        }
        if damaged { result = memo.withTables { resolveFrames(of: report, images: &images, tables: &$0, mayRebuild: false) } }
        var missing: [SymbolicatedReport.MissingSymbols] = []
        for (index, state) in images.enumerated() {
            guard case let .missing(reason) = state else { continue }
            let image = report.images[index]
            missing.append(.init(name: image.name, uuid: image.uuid, isAppImage: report.isAppImage(image), reason: reason))
        }
        result.imagesWithoutSymbols = missing.sorted { ($0.isAppImage ? 0 : 1, $0.name) < ($1.isAppImage ? 0 : 1, $1.name) }
        result.signature = CrashSignature(result)
        return result
    }

    /// The report's threads and backtrace with every frame resolved as far as `images` allows.
    private func resolveFrames(of report: CrashReport, images: inout [ImageSymbols], tables: inout SymbolicationMemo.Tables,
                               mayRebuild: Bool) -> SymbolicatedReport {
        var boxes = [SymbolicatedReport.ImageBox?](repeating: nil, count: report.images.count)
        var resolutions: [SymbolicatedReport.FrameResolution] = []
        resolutions.reserveCapacity(report.threads.reduce(report.lastExceptionBacktrace?.count ?? 0) { $0 + $1.frames.count })
        var starts: [Int] = []
        starts.reserveCapacity(report.threads.count + 1)
        // The tables and image states move into the context and back, so that nothing is copied.
        var context = FrameContext(report: report, images: [], tables: SymbolicationMemo.Tables(), mayRebuild: mayRebuild)
        swap(&context.tables, &tables)
        swap(&context.images, &images)
        for thread in report.threads {
            starts.append(resolutions.count)
            thread.frames.withUnsafeBufferPointer { frames in
                // Frame 0 is where the thread stopped; the others are return addresses.
                for position in frames.indices {
                    resolutions.append(resolve(frames, position, isReturnAddress: frames[position].number > 0, context: &context, boxes: &boxes))
                }
            }
        }
        starts.append(resolutions.count)
        if let backtrace = report.lastExceptionBacktrace {
            // Every exception backtrace entry is a return address recorded by the throw.
            backtrace.withUnsafeBufferPointer { frames in
                for position in frames.indices {
                    resolutions.append(resolve(frames, position, isReturnAddress: true, context: &context, boxes: &boxes))
                }
            }
        }
        swap(&context.tables, &tables)
        swap(&context.images, &images)
        return SymbolicatedReport(report: report, resolutions: resolutions, threadStarts: starts, imageBoxes: boxes)
    }

    /// What resolving a report's frames reads and updates.
    private struct FrameContext {
        let report: CrashReport
        var images: [ImageSymbols]
        var tables: SymbolicationMemo.Tables
        let mayRebuild: Bool
    }

    /// What is known about one image of the report being symbolicated.
    enum ImageSymbols: Sendable {
        case unused
        case pending
        case indexed(SymbolIndex)
        /// A lookup in this index failed; it is to be rebuilt.
        case damaged(SymbolIndex, SymbolicationError)
        case missing(String)
    }

    /// The index of `image`: from this symbolicator's memory, else the cache, else the locator.
    /// An intact cached index is used without asking the locator; one built from damaged debug
    /// information is offered every file the locator has, so an intact copy replaces it.
    private func symbols(for image: CrashReport.Image, isAppImage: Bool, progress: (@Sendable (SymbolIndexProgress) -> Void)?) throws -> ImageSymbols {
        guard let uuid = image.uuid else { return .missing("the report gives no UUID for it") }
        if let known = memo.image(uuid) { return known }
        let architecture = image.architecture.flatMap(MachOArchitecture.init(name:))
        let cached = architecture.flatMap { cache.cachedIndex(uuid: uuid, architecture: $0) }
        let state: ImageSymbols
        if let cached, !cached.isBuiltFromDamagedDebugInfo {
            state = .indexed(cached)
        } else {
            state = try located(uuid: uuid, architecture: architecture, isAppImage: isAppImage, cached: cached, progress: progress)
        }
        memo.remember(uuid, state)
        return state
    }

    /// The best index the locator's files give, starting from `cached`: files are tried in the
    /// locator's order until one gives an index built from intact debug information.
    private func located(uuid: UUID, architecture: MachOArchitecture?, isAppImage: Bool, cached: SymbolIndex?,
                         progress: (@Sendable (SymbolIndexProgress) -> Void)?) throws -> ImageSymbols {
        var best = cached
        var failure: (any Error)?
        do {
            try locator.forEachSymbolFile(for: uuid, architecture: architecture, isSystemImage: !isAppImage) { file in
                do {
                    best = try cache.index(for: file, progress: progress)
                } catch let error as CancellationError {
                    throw error
                } catch {
                    failure = failure ?? error
                }
                return best?.isBuiltFromDamagedDebugInfo ?? true
            }
        } catch let error as CancellationError {
            throw error
        } catch {
            failure = failure ?? error
        }
        if let best { return .indexed(best) }
        if let failure { return .missing("\(failure)") }
        return .missing(isAppImage ? missingAppSymbolsReason : "no symbol file with this UUID was given")
    }

    private func imageIndex(_ index: Int?, address: UInt64, in report: CrashReport) -> Int? {
        if let index, report.images.indices.contains(index) { return index }
        return report.images.firstIndex { $0.contains(address) }
    }

    /// Resolves `frames[position]`. Frames are read field by field where they are: passed as a
    /// value (even `borrowing`) each one was copied, its strings retained and released.
    private func resolve(_ frames: UnsafeBufferPointer<CrashReport.Frame>, _ position: Int, isReturnAddress: Bool, context: inout FrameContext,
                         boxes: inout [SymbolicatedReport.ImageBox?]) -> SymbolicatedReport.FrameResolution {
        let address = frames[position].address
        guard let imageIndex = imageIndex(frames[position].imageIndex, address: address, in: context.report) else {
            let resolved = reportLocations(frames, position, tables: &context.tables)
            return .init(resolved: resolved, imageIndex: -1, status: resolved == nil ? .noImage : .fromReport, imageOffset: nil)
        }
        if boxes[imageIndex] == nil { boxes[imageIndex] = SymbolicatedReport.ImageBox(context.report.images[imageIndex]) }
        let loadAddress = context.report.images[imageIndex].loadAddress
        let offset: UInt64? = address >= loadAddress ? address - loadAddress : nil
        var result = SymbolicatedReport.FrameResolution(resolved: nil, imageIndex: Int32(imageIndex), status: .noSymbols, imageOffset: offset)
        guard case let .indexed(index) = context.images[imageIndex], let offset else {
            result.resolved = reportLocations(frames, position, tables: &context.tables)
            if result.resolved != nil { result.status = .fromReport }
            return result
        }
        let lookupOffset = Self.lookupOffset(offset, isReturnAddress: isReturnAddress, architecture: index.architecture)
        do {
            result.resolved = try context.tables.resolved(in: index, at: lookupOffset, imageName: context.report.images[imageIndex].name)
        } catch {
            context.images[imageIndex] = context.mayRebuild ? .damaged(index, error) : .missing("\(error)")
            return result
        }
        result.status = result.resolved == nil ? .notFound : .symbolicated
        if result.resolved == nil, frames[position].symbol != nil {
            result.resolved = reportLocations(frames, position, tables: &context.tables)
            result.status = .fromReport
        }
        return result
    }

    /// Rebuilds a damaged index the way a missing one is found (the same files, in the same
    /// order, system images never reaching the archive); nil when no file gives an index.
    private func rebuilt(_ damaged: SymbolIndex, isAppImage: Bool,
                         progress: (@Sendable (SymbolIndexProgress) -> Void)?) throws -> ImageSymbols? {
        cache.discard(uuid: damaged.uuid, architecture: damaged.architecture)
        memo.forget(damaged.uuid)
        let state = try located(uuid: damaged.uuid, architecture: damaged.architecture, isAppImage: isAppImage, cached: nil, progress: progress)
        guard case .indexed = state else { return nil }
        memo.remember(damaged.uuid, state)
        return state
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
    private func reportLocations(_ frames: UnsafeBufferPointer<CrashReport.Frame>, _ position: Int, tables: inout SymbolicationMemo.Tables) -> ResolvedAddress? {
        guard let symbol = frames[position].symbol else { return nil }
        return ResolvedAddress(locations: [.init(function: tables.demangled(symbol), rawFunction: symbol, file: frames[position].sourceFile,
                                                 line: frames[position].sourceLine ?? 0, column: 0, inlined: false,
                                                 symbolOffset: frames[position].symbolOffset)])
    }
}
