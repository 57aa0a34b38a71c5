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
public struct DSYMPathLocator: SymbolFileLocator {
    /// Every image found, by UUID.
    public let files: [UUID: SymbolFile]

    // Folders of dSYMs are searched this deep, so that pointing at a large tree stays quick.
    static let maxSearchDepth = 4

    /// Reads the UUIDs of every image under `paths`. A path that holds no Mach-O image at all
    /// is an error naming it, so a typo does not silently produce an unsymbolicated report.
    public init(paths: [String]) throws(SymbolicationError) {
        var found: [UUID: SymbolFile] = [:]
        for path in paths {
            let files = try Self.symbolFiles(at: path)
            guard !files.isEmpty else {
                throw SymbolicationError.notASymbolFile(path: path, reason: "it contains no Mach-O DWARF file")
            }
            for file in files where found[file.uuid] == nil { found[file.uuid] = file }
        }
        self.files = found
    }

    /// The file registered for `uuid`.
    public func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile? {
        files[uuid]
    }

    static func symbolFiles(at path: String) throws(SymbolicationError) -> [SymbolFile] {
        let kind = FileKind(path: path)
        guard kind != .missing else {
            throw SymbolicationError.notASymbolFile(path: path, reason: "no such file or folder")
        }
        if kind != .directory { return try images(inFile: path, strict: true) }
        var result: [SymbolFile] = []
        for candidate in dwarfFiles(under: URL(fileURLWithPath: path), depth: 0) {
            result += (try? images(inFile: candidate, strict: false)) ?? []
        }
        return result
    }

    // DWARF files of every .dSYM bundle at or below `folder`.
    static func dwarfFiles(under folder: URL, depth: Int) -> [String] {
        let manager = FileManager.default
        let dwarf = folder.appendingPathComponent("Contents/Resources/DWARF")
        if let names = try? manager.contentsOfDirectory(atPath: dwarf.path) {
            return names.sorted().filter { !$0.hasPrefix(".") }.map { dwarf.appendingPathComponent($0).path }
        }
        guard depth < maxSearchDepth, let entries = try? manager.contentsOfDirectory(atPath: folder.path) else { return [] }
        var result: [String] = []
        for name in entries.sorted() where !name.hasPrefix(".") {
            let child = folder.appendingPathComponent(name)
            let kind = FileKind(path: child.path)
            guard kind != .missing else { continue }
            if kind == .directory {
                result += dwarfFiles(under: child, depth: depth + 1)
            } else if name.lowercased().hasSuffix(".dwarf") {
                result.append(child.path)
            }
        }
        return result
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
