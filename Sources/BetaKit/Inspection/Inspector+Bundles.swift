#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

extension Inspector {
    /// A folder: a `.dSYM` (Contents/Resources/DWARF), an `.app` (Info.plist at its top) or an
    /// `.xcarchive`, told by layout; anything else is no kind betactl knows.
    func inspectDirectory(_ path: String) throws(InspectionError) -> FileInspection {
        let root = path.withoutTrailingSlashes
        if FileKind(path: root + "/Info.plist") == .regularFile && FileKind(path: root + "/Contents") == .missing
            && FileKind(path: root + "/Products") == .missing {
            return try inspectAppFolder(root)
        }
        return try ingest(root, size: nil)
    }

    func inspectAppFolder(_ root: String) throws(InspectionError) -> FileInspection {
        do {
            let source = try DirectoryBundleSource(root: root)
            let name = root.split(separator: "/").last.map(String.init) ?? root
            let app = try AppWalker(source: source, inputPath: root).readApp(at: name)
            let size = source.files.values.reduce(0, +)
            return FileInspection(path: root, kind: .app, summary: .bundle(bundleSummary(app, dsyms: [], sha256: nil, size: size)))
        } catch {
            throw InspectionError.damaged(path: root, kind: .app, detail: "\(error)")
        }
    }

    func inspectZip(_ path: String, size: UInt64) throws(InspectionError) -> FileInspection {
        try ingest(path, size: size)
    }

    /// Zipped bytes already in memory: written to the work directory and read from there.
    func inspectZipBytes(_ bytes: [UInt8], path: String) throws(InspectionError) -> FileInspection {
        let scratch = workDirectory + "/inspect-\(CurrentProcess.id)-\(UInt32.random(in: 0 ... .max)).zip"
        do { try Data(bytes).write(to: URL(fileURLWithPath: scratch)) } catch {
            throw InspectionError.fileSystem(FileSystemError(operation: "write", path: scratch, errno: Errno.current == 0 ? Errno.ioError : Errno.current))
        }
        defer { _ = try? FileSystem.removeFile(scratch) }
        var result = try ingest(scratch, size: UInt64(bytes.count), shownPath: path)
        result.path = path
        return result
    }

    /// Reads an .ipa, .xcarchive or dSYM (folder or zip) with the same ingestor `release` uses.
    func ingest(_ path: String, size: UInt64?, shownPath: String? = nil) throws(InspectionError) -> FileInspection {
        let shown = shownPath ?? path
        let extraction = workDirectory + "/inspect-\(CurrentProcess.id)-\(UInt32.random(in: 0 ... .max))"
        let created: Bool
        do { created = try FileSystem.makeDirectory(extraction, permissions: 0o700) } catch {
            throw InspectionError.fileSystem(FileSystemError(error, operation: "create directory"))
        }
        guard created else {
            throw InspectionError.fileSystem(FileSystemError(operation: "create directory", path: extraction, errno: Errno.fileExists))
        }
        defer { try? FileManager.default.removeItem(atPath: extraction) }
        let artifact: IngestedArtifact
        do {
            artifact = try ArtifactIngestor(workDirectory: extraction).ingest(path: path)
        } catch {
            throw classify(error, path: path, shown: shown)
        }
        var dsyms: [MachOSliceSummary] = []
        var anyFat = false
        for file in artifact.dwarfFiles {
            guard let location = artifact.dwarfLocations[file.path], let mapped = try? MappedFile(path: location),
                  let read = try? mapped.withBytes({ (bytes) throws(MachOError) in try MachOSliceSummary.slices(of: bytes, path: file.path) }) else {
                dsyms += file.slices.map { MachOSliceSummary(path: file.path, arch: $0.architecture.name, uuid: $0.uuid?.uuidString, fileType: "dsym") }
                continue
            }
            anyFat = anyFat || read.fat
            dsyms += read.slices
        }
        let total = size ?? artifact.size
        switch artifact.kind {
        case .dsym:
            return FileInspection(path: shown, kind: .dsym, summary: .machO(MachOSummary(fat: anyFat, slices: dsyms, size: total)))
        case .ipa, .xcarchive:
            guard let app = artifact.app else {
                throw InspectionError.damaged(path: shown, kind: artifact.kind == .ipa ? .ipa : .xcarchive, detail: "it holds no app bundle")
            }
            let kind: AppleFileKind = artifact.kind == .ipa ? .ipa : .xcarchive
            return FileInspection(path: shown, kind: kind, summary: .bundle(bundleSummary(app, dsyms: dsyms, sha256: artifact.sha256?.hex, size: total)))
        }
    }

    /// An ingest failure as a damaged file of the kind the bytes point to, or an unknown file.
    func classify(_ error: IngestError, path: String, shown: String) -> InspectionError {
        if case let .fileSystem(failure) = error { return .fileSystem(failure) }
        let kind: AppleFileKind?
        if FileKind(path: path) == .directory {
            kind = nil
        } else {
            let head = (try? MappedFile(path: path)).map { mapped in mapped.withBytes { Array($0.prefix(Self.maxDocumentSize)) } } ?? []
            kind = FileRecognizer.recognize(head).kind
        }
        let detail: String
        switch error {
        case let .unrecognized(_, reason): detail = reason
        case let .noAppBundle(_, reason): detail = reason
        case let .archive(_, zipError): detail = zipError.description
        default: detail = error.description
        }
        guard let kind else {
            let what = FileKind(path: path) == .directory
                ? "a folder that is not an .app, .xcarchive or .dSYM bundle (\(detail))"
                : "a zip archive that is not an .ipa, .xcarchive or dSYM (\(detail))"
            return .unrecognized(path: shown, evidence: what)
        }
        return .damaged(path: shown, kind: kind, detail: detail)
    }

    func bundleSummary(_ app: IngestedApp, dsyms: [MachOSliceSummary], sha256: String?, size: UInt64) -> BundleSummary {
        let executables = app.executables.flatMap { executable in executable.slices.map { ExecutableSummary(executable, slice: $0) } }
        let extensions = app.nestedBundles.filter { $0.kind != .framework }.map { bundle in
            ExtensionSummary(kind: bundle.kind.rawValue, bundleId: bundle.bundleIdentifier, path: bundle.bundlePath,
                             profile: bundle.profile.map { "\($0.name) (\($0.uuid), \($0.type.rawValue))" })
        }
        return BundleSummary(bundleId: app.info.bundleIdentifier, name: app.info.displayName, version: app.info.shortVersion,
                             build: app.info.buildVersion, minimumOS: app.info.minimumOSVersion, executables: executables,
                             profile: app.profile.map { ProfileSummary($0, now: now) }, extensions: extensions, icon: app.iconPNG != nil,
                             dsyms: dsyms, sha256: sha256, size: size, problems: (app.problems + app.warnings).map(\.description),
                             signature: app.signature.map { CodeSignatureSummary(path: nil, report: $0) })
    }
}
