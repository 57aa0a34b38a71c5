#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Multipart
import PosixIO

/// A release (or symbols) upload read from `multipart/form-data`: the build and dSYM files written
/// to a private staging folder in the home's `tmp/` as they are parsed, hashed on the way, plus the
/// form's text fields. The folder is removed when the upload goes away.
final class ReleaseUpload: Sendable {
    /// The file fields and the text fields an upload may have.
    struct Fields: Sendable {
        var files: Set<String>
        var texts: Set<String>

        /// `POST /api/v1/releases`: `ipa` or `xcarchive`, any number of `dsym`, notes, groups and flags.
        static let release = Fields(files: ["ipa", "xcarchive", "dsym"],
                                    texts: ["notes", "group", "again", "allowMissingSymbols", "allowProfileType", "allowUnsigned"])
        /// `POST /api/v1/symbols`: dSYM zips.
        static let symbols = Fields(files: ["dsym"], texts: [])

        /// The same fields plus more text fields (the dashboard's CSRF token).
        func adding(texts more: Set<String>) -> Fields { Fields(files: files, texts: texts.union(more)) }
    }

    /// The staging folder.
    let directory: String
    /// The form's parts in order.
    let parts: [MultipartPart<UploadPart>]

    private init(directory: String, parts: [MultipartPart<UploadPart>]) {
        self.directory = directory
        self.parts = parts
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Parses `request`'s body (already spooled to disk when large) into files in a new staging
    /// folder of `archive`'s home. Runs blocking I/O: call it on the blocking pool.
    static func receive(_ request: Request, fields: Fields, archive: Archive, maxBytes: Int64) throws -> ReleaseUpload {
        let boundary = try MultipartBoundary(contentType: request.headers["Content-Type"] ?? "")
        let directory = try archive.makeStagingDirectory()
        var fileCount = 0
        var limits = MultipartLimits(maxParts: 64, bytesPerPart: 64 * 1024, totalBytes: maxBytes)
        for name in fields.files { limits.bytesPerField[name] = maxBytes }
        var parser = MultipartParser<UploadPartConsumer>(boundary: boundary, limits: limits) { head in
            guard fields.files.contains(head.name) else { return try UploadPartConsumer(path: nil, name: head.name) }
            // Each file in a folder of its own, under the name the client gave (made safe), so the
            // release records that name and messages can quote it.
            let name = safeFileName(head.filename, field: head.name)
            let folder = "\(directory)/\(fileCount)"
            fileCount += 1
            do {
                guard try FileSystem.makeDirectory(folder, permissions: 0o700) else {
                    throw MultipartError.storageFailed(part: nil, reason: "cannot create a staging folder: \(folder) already exists")
                }
            } catch let error as SystemCallError {
                throw MultipartError.storageFailed(part: nil, reason: "cannot create a staging folder: \(error.reason)")
            }
            return try UploadPartConsumer(path: "\(folder)/\(name)", name: name)
        }
        do {
            let parts: [MultipartPart<UploadPart>]
            switch request.body {
            case .empty: parts = try parser.parse([])
            case let .bytes(bytes): parts = try parser.parse(bytes)
            case let .file(file): parts = try parser.parseFile(atPath: file.path)
            }
            let upload = ReleaseUpload(directory: directory, parts: parts)
            try upload.check(fields)
            return upload
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Refuses fields the operation does not take, files sent as text and text sent as files.
    private func check(_ fields: Fields) throws {
        for part in parts {
            switch part.value {
            case .file where !fields.files.contains(part.name), .text where !fields.texts.contains(part.name) && !fields.files.contains(part.name):
                let known = (fields.files.sorted() + fields.texts.sorted()).joined(separator: ", ")
                throw APIProblem(.invalidMultipart, "the form has a part named \"\(String(part.name.prefix(60)))\", which this operation does not take; its parts are \(known)")
            case .text where fields.files.contains(part.name):
                throw APIProblem(.invalidMultipart, "the part \(part.name) must be a file (send it as -F \(part.name)=@FILE)")
            default:
                continue
            }
        }
    }

    /// Every file sent in field `name`, in order.
    func files(_ name: String) -> [UploadedFile] {
        parts.compactMap { part in
            guard part.name == name, case let .file(file) = part.value else { return nil }
            return file
        }
    }

    /// Every text value of field `name`, in order; a value that is not UTF-8 is refused.
    func texts(_ name: String) throws -> [String] {
        try parts.filter { $0.name == name }.map { part in
            guard let text = part.value.text else { throw APIProblem(.invalidMultipart, "the field \(name) is not UTF-8 text") }
            // Stored text ends at a NUL: refused rather than cut short.
            guard !text.utf8.contains(0) else { throw APIProblem(.invalidMultipart, "the field \(name) contains a NUL character, which would cut it short; send it without") }
            return text
        }
    }

    /// The one text value of field `name`, if sent.
    func text(_ name: String) throws -> String? {
        let values = try texts(name)
        guard values.count <= 1 else { throw APIProblem(.invalidMultipart, "the field \(name) was sent \(values.count) times; send it once") }
        return values.first
    }

    /// A yes/no field: `true`/`false`, `1`/`0`, `yes`/`no`, `on` (a checked checkbox); absent is no.
    func flag(_ name: String) throws -> Bool {
        guard let value = try text(name)?.lowercased() else { return false }
        switch value {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "": return false
        default: throw APIProblem(.invalidMultipart, "the field \(name) is \"\(String(value.prefix(20)))\"; send true or false")
        }
    }

    /// `text` with every staged file's path replaced by the name the client gave it, so messages
    /// from ingest name the upload, not a server path.
    func clientWording(_ text: String) -> String {
        var result = text
        for part in parts {
            if case let .file(file) = part.value { result = result.replacing(file.path, with: file.name) }
        }
        return result.replacing(directory + "/", with: "")
    }

    /// A file name made of safe characters only, with the extension ingest expects for the field.
    static func safeFileName(_ given: String?, field: String) -> String {
        let base = (given ?? "").split(separator: "/").last.map(String.init) ?? ""
        var name = String(base.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0" ... "9").contains(scalar) || ".-_+".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }.prefix(120))
        while name.hasPrefix(".") { name.removeFirst() }
        let lower = name.lowercased()
        switch field {
        case "ipa" where !lower.hasSuffix(".ipa"): name = (name.isEmpty ? "upload" : name) + ".ipa"
        case "xcarchive" where !lower.hasSuffix(".zip"): name = (name.isEmpty ? "upload.xcarchive" : name) + ".zip"
        default: if name.isEmpty { name = field }
        }
        return name
    }
}
