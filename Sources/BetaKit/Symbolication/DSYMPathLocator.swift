#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Symbol files named explicitly (`--dsym PATH`): dSYM bundles, folders that contain dSYMs
/// (such as an archive's `dSYMs` folder), and bare DWARF or Mach-O files.
///
/// Every slice's UUID is read once, when the locator is created, so lookups are dictionary hits.
public struct DSYMPathLocator: ListingSymbolFileLocator {
    /// Every image found, by UUID (the first file given for it).
    public var files: [UUID: SymbolFile] { candidates.compactMapValues(\.first) }
    /// Every file found for each UUID, in the order given: several paths may hold copies of one
    /// image (a damaged and an intact one), and a fat file one slice per architecture.
    let candidates: [UUID: [SymbolFile]]

    // Folders of dSYMs are searched this deep, so that pointing at a large tree stays quick.
    static let maxSearchDepth = 4

    /// Reads the UUIDs of every image under `paths`. A path that holds no Mach-O image at all
    /// is an error naming it, so a typo does not silently produce an unsymbolicated report.
    public init(paths: [String]) throws(SymbolicationError) {
        var found: [UUID: [SymbolFile]] = [:]
        for path in paths {
            let files = try Self.symbolFiles(at: path)
            guard !files.isEmpty else {
                throw SymbolicationError.notASymbolFile(path: path, reason: "it contains no Mach-O DWARF file")
            }
            for file in files where found[file.uuid]?.contains(file) != true { found[file.uuid, default: []].append(file) }
        }
        candidates = found
    }

    /// Every file found for `uuid`.
    public func listedSymbolFiles(for uuid: UUID) -> [SymbolFile] { candidates[uuid] ?? [] }

    static func symbolFiles(at path: String) throws(SymbolicationError) -> [SymbolFile] {
        let kind = FileKind(path: path)
        guard kind != .missing else {
            throw SymbolicationError.notASymbolFile(path: path, reason: "no such file or folder")
        }
        if kind != .directory { return try images(inFile: path, strict: true) }
        var result: [SymbolFile] = []
        for candidate in dwarfFiles(under: path.withoutTrailingSlashes, depth: 0) {
            result += (try? images(inFile: candidate, strict: false)) ?? []
        }
        return result
    }

    // DWARF files of every .dSYM bundle at or below `folder`.
    static func dwarfFiles(under folder: String, depth: Int) -> [String] {
        let dwarf = folder + "/Contents/Resources/DWARF"
        if FileKind(path: dwarf) == .directory {
            return visibleNames(in: dwarf).map { dwarf + "/" + $0 }
        }
        guard depth < maxSearchDepth else { return [] }
        var result: [String] = []
        for name in visibleNames(in: folder) {
            let child = folder + "/" + name
            let kind = FileKind(path: child)
            if kind == .directory {
                result += dwarfFiles(under: child, depth: depth + 1)
            } else if kind != .missing, name.lowercased().hasSuffix(".dwarf") {
                result.append(child)
            }
        }
        return result
    }

    /// The entries of `folder` not starting with ".", sorted; empty when it cannot be read.
    static func visibleNames(in folder: String) -> [String] {
        ((try? directoryEntries(folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The UUID and architecture of every slice of the Mach-O file at `path`.
    public static func images(inFile path: String, strict: Bool = true) throws(SymbolicationError) -> [SymbolFile] {
        let mapped: MappedFile
        do { mapped = try MappedFile(path: path) } catch { throw SymbolicationError.fileSystem(error) }
        return try mapped.withBytes { (bytes) throws(SymbolicationError) -> [SymbolFile] in
            guard MachOFile.looksLikeMachO(bytes) else {
                if strict { throw SymbolicationError.notASymbolFile(path: path, reason: "it is not a Mach-O file") }
                return []
            }
            let file: MachOFile
            do { file = try MachOFile(bytes: bytes) } catch {
                throw SymbolicationError.notASymbolFile(path: path, reason: "\(error)")
            }
            var result: [SymbolFile] = []
            for slice in file.slices {
                guard let image = try? MachOImage(bytes: MachOFile.bytes(of: slice, in: bytes)), let uuid = image.uuid else { continue }
                result.append(SymbolFile(path: path, uuid: uuid, architecture: image.architecture))
            }
            if result.isEmpty && strict {
                throw SymbolicationError.notASymbolFile(path: path, reason: "none of its slices has an LC_UUID")
            }
            return result
        }
    }
}
