// Fuzzing only: compiled into the BetaKit module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The BetaKit targets by name.
public enum BetaKitFuzz {
    /// Every target of this module.
    public static let targets: [String: FuzzTarget] = ["index": symbolIndex, "crash-render": crashRender, "enrollment-intake": enrollmentIntake]

    // One scratch folder per fuzzing process, in memory where the system offers it.
    static let directory: String = {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let path = "\(base)/betactl-fuzz-\(getpid())"
        mkdir(path, 0o700)
        return path
    }()

    static func directoryListing() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    }

    /// A dSYM's DWARF file (or any Mach-O): the symbol index build and lookups on the index it wrote.
    static func symbolIndex(_ bytes: UnsafeRawBufferPointer) {
        guard let file = try? MachOFile(bytes: bytes) else { return }
        var slices: [(uuid: UUID, image: MachOImage, bytes: UnsafeRawBufferPointer)] = []
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            if let image = try? MachOImage(bytes: sliceBytes), let uuid = image.uuid { slices.append((uuid, image, sliceBytes)) }
        }
        guard !slices.isEmpty else { return }
        let input = directory + "/input", index = directory + "/index"
        do { try Data(bytes).write(to: URL(fileURLWithPath: input)) } catch {
            fuzzCheck(false, "cannot write the fuzz input to \(input): \(error)")
        }
        defer { unlink(input); unlink(index) }
        for slice in slices.prefix(2) {
            let source = SymbolFile(path: input, uuid: slice.uuid, architecture: slice.image.architecture)
            do {
                fuzzConsume(try SymbolIndexBuilder(source: source, destination: index, progress: nil).build())
                let built = try SymbolIndex(path: index)
                for address in probeAddresses(slice.image, slice.bytes, textAddress: built.textAddress) {
                    do { fuzzConsume(try built.lookup(address: address)) } catch { fuzzConsume(error.description) }
                }
            } catch {
                fuzzConsume("\(error)")
            }
            let left = directoryListing().subtracting(["input", "index"])
            fuzzCheck(left.isEmpty, "an index build left scratch files behind: \(left.sorted())")
        }
    }

    /// Addresses worth looking up: symbol starts, DWARF function ranges and the bytes around them.
    static func probeAddresses(_ image: MachOImage, _ bytes: UnsafeRawBufferPointer, textAddress: UInt64) -> [UInt64] {
        var starts: [UInt64] = [textAddress]
        starts += ((try? image.definedSymbols(in: bytes, codeOnly: true)) ?? []).prefix(32).map(\.address)
        let sections = DWARFSections(image: image, bytes: bytes)
        if sections.hasDebugInfo {
            let context = DWARFContext(sections: sections)
            for index in context.unitHeaders.indices.prefix(4) {
                guard let summary = try? context.summary(ofUnitAt: index) else { continue }
                starts += summary.ranges.prefix(32).flatMap { [$0.low, $0.high] }
                starts += (summary.lineTable?.rows ?? []).prefix(32).map(\.address)
            }
        }
        return starts.prefix(128).flatMap { [$0 &- 1, $0, $0 &+ 1] }
    }

    /// Finds no symbols, so every image of a report goes down the "missing symbols" path.
    struct NoSymbols: SymbolFileLocator {
        func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile? { nil }
    }

    static let symbolicator: Symbolicator? = {
        guard let cache = try? SymbolIndexCache(directory: directory + "/cache") else { return nil }
        return Symbolicator(locator: NoSymbols(), cache: cache)
    }()

    /// A crash report as `betactl symbolicate` handles one without dSYMs: parsed, resolved, rendered
    /// as text and JSON, and grouped by its signature.
    static func crashRender(_ bytes: UnsafeRawBufferPointer) {
        guard let report = try? CrashReport(bytes: Array(bytes)), let symbolicator else { return }
        do {
            let symbolicated = try symbolicator.symbolicate(report)
            fuzzConsume(symbolicated.renderTextBytes())
            do { fuzzConsume(try symbolicated.renderJSON()) } catch { fuzzConsume("\(error)") }
            fuzzConsume(CrashSignature(symbolicated))
        } catch {
            fuzzConsume("\(error)")
        }
    }
}
