import Foundation
import Testing

/// Rules of the developers' guide that a reader of the sources can check mechanically, so they
/// hold for code written later too.
@Suite struct SourceConventionTests {
    struct SourceFile {
        var path: String
        var lines: [String]
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func swiftSources() throws -> [SourceFile] {
        let sources = root.appendingPathComponent("Sources").path
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources))
        var files: [SourceFile] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOfFile: sources + "/" + relative, encoding: .utf8)
            files.append(SourceFile(path: "Sources/" + relative, lines: text.components(separatedBy: "\n")))
        }
        return files.sorted { $0.path < $1.path }
    }

    static func trimmed(_ line: String) -> String { line.trimmingCharacters(in: .whitespaces) }

    /// Whether the declaration at `index` has a `///` (or `/** */`) comment directly above it;
    /// attributes and conditional-compilation lines may sit in between.
    static func isDocumented(_ lines: [String], at index: Int) -> Bool {
        var above = index - 1
        while above >= 0 {
            let line = trimmed(lines[above])
            guard line.hasPrefix("@") || line.hasPrefix("#if") || line.hasPrefix("#else") || line.hasPrefix("#endif") else { break }
            above -= 1
        }
        guard above >= 0 else { return false }
        let line = trimmed(lines[above])
        return line.hasPrefix("///") || line.hasSuffix("*/")
    }

    /// The nearest line above `index` that is indented less: the declaration enclosing it.
    static func enclosingLine(_ lines: [String], of index: Int) -> String? {
        let indent = lines[index].prefix { $0 == " " }.count
        var above = index - 1
        while above >= 0 {
            let line = lines[above]
            if !trimmed(line).isEmpty && line.prefix(while: { $0 == " " }).count < indent { return trimmed(line) }
            above -= 1
        }
        return nil
    }

    static func undocumentedPublicDeclarations(in file: SourceFile) throws -> [String] {
        let declaration = try Regex(#"^(@[\w.]+(\([^)]*\))?\s+)*(nonisolated\s+)?(public|open)\s+(?!import\b)"#)
        let enumCase = try Regex(#"^case\s+[`\w]"#)
        let requirement = try Regex(#"^(static\s+|mutating\s+)*(func|var|init|subscript|associatedtype)\b"#)
        let publicEnum = try Regex(#"\b(public|open)\b.*\benum\b"#)
        let publicProtocol = try Regex(#"\bpublic\b.*\bprotocol\b"#)
        var misses: [String] = []
        for (index, raw) in file.lines.enumerated() {
            let line = trimmed(raw)
            var needsDoc = line.firstMatch(of: declaration) != nil
            if !needsDoc, let enclosing = enclosingLine(file.lines, of: index) {
                // Cases of a public enum and requirements of a public protocol are public without the keyword.
                let isCase = line.firstMatch(of: enumCase) != nil && !line.hasSuffix(":")
                needsDoc = (isCase && enclosing.firstMatch(of: publicEnum) != nil)
                    || (line.firstMatch(of: requirement) != nil && enclosing.firstMatch(of: publicProtocol) != nil)
            }
            if needsDoc && !isDocumented(file.lines, at: index) { misses.append("\(file.path):\(index + 1): \(line)") }
        }
        return misses
    }

    @Test func everyPublicDeclarationHasADocComment() throws {
        let files = try Self.swiftSources()
        #expect(files.count > 100, "the scan found too few sources to mean anything")
        let misses = try files.flatMap(Self.undocumentedPublicDeclarations)
        #expect(misses.isEmpty, "public declarations without a /// comment:\n\(misses.joined(separator: "\n"))")
    }

    @Test func theDocCommentScanFindsWhatItMustFind() throws {
        let sample = SourceFile(path: "sample.swift", lines: """
            /// Documented.
            public struct A {
                // A plain comment is not documentation.
                public var undocumented: Int
                /// Documented through an attribute.
                @inlinable
                public func documented() {}
                var internalNeedsNothing: Int
            }
            /// Documented.
            public enum B {
                /// Documented.
                case one
                case two
            }
            /// Documented.
            public protocol C {
                func requirement()
            }
            """.components(separatedBy: "\n"))
        let misses = try Self.undocumentedPublicDeclarations(in: sample).map { $0.split(separator: ":")[1] }
        #expect(misses == ["4", "14", "18"])
    }

    @Test func sourcesNeverUseTryBangOrAsBang() throws {
        var uses: [String] = []
        for file in try Self.swiftSources() {
            for (index, raw) in file.lines.enumerated() {
                let code = raw.components(separatedBy: "//").first ?? raw
                if code.contains("try!") || code.contains(" as! ") { uses.append("\(file.path):\(index + 1): \(Self.trimmed(raw))") }
            }
        }
        #expect(uses.isEmpty, "a trap on unexpected data:\n\(uses.joined(separator: "\n"))")
    }

    @Test func everyGlibcImportHasADarwinBranch() throws {
        var misses: [String] = []
        for file in try Self.swiftSources() {
            for (index, raw) in file.lines.enumerated() where Self.trimmed(raw) == "import Glibc" {
                // The usual shape: #if canImport(Glibc) / import Glibc / [Linux-only names] / #elseif canImport(Darwin) / import Darwin.
                let rest = file.lines[(index + 1)...].map(Self.trimmed)
                guard let end = rest.firstIndex(where: { $0.hasPrefix("#elseif") || $0.hasPrefix("#else") || $0 == "#endif" }),
                      rest[end].hasPrefix("#else"), rest[(end + 1)...].prefix(3).contains("import Darwin") else {
                    misses.append("\(file.path):\(index + 1)")
                    continue
                }
            }
        }
        #expect(misses.isEmpty, "Glibc imported without a Darwin branch (betactl must build on macOS):\n\(misses.joined(separator: "\n"))")
    }
}

extension SourceConventionTests {
    /// `symbolicate`, `release` and `add-symbols` must read and write the same index folder: its
    /// name is spelled once, in `Home`, and everything else asks `Home` for it.
    @Test func theSymbolIndexFolderIsNamedOnlyInHome() throws {
        var spellings: [String] = []
        for file in try Self.swiftSources() where file.path != "Sources/BetaKit/Home/Home.swift" {
            for (index, raw) in file.lines.enumerated() {
                let code = raw.components(separatedBy: "//").first ?? raw
                // A folder is spelled by joining ("+ \"/symbols\"", "\\(cache)/symbols"); a bare "/symbols"
                // is an HTTP route (the API's and the dashboard's symbol pages), not the folder.
                let joined = code.contains("+ \"/symbols\"") || code.contains(")/symbols\"")
                if joined || code.contains("cache/symbols\"") { spellings.append("\(file.path):\(index + 1): \(Self.trimmed(raw))") }
            }
        }
        #expect(spellings.isEmpty, "the symbol index folder spelled outside Home.symbolIndexPath:\n\(spellings.joined(separator: "\n"))")
    }
}

extension SourceConventionTests {
    /// The HTTP engine faces the network: a force-unwrap there is a crash one odd input away. Its
    /// engine, parser, file and support code unwrap with `guard`, `if let` or `map` instead.
    @Test func theHTTPEngineNeverForceUnwraps() throws {
        let unwrap = try Regex(#"[\w\)\]]!(?!=)"#)
        let literal = try Regex(#""(\\.|[^"\\])*""#)
        let folders = ["Engine", "Parsing", "Files", "Support"].map { "Sources/BetaServer/\($0)/" }
        var uses: [String] = []
        for file in try Self.swiftSources() where folders.contains(where: file.path.hasPrefix) {
            for (index, raw) in file.lines.enumerated() {
                let code = (raw.components(separatedBy: "//").first ?? raw).replacing(literal, with: "\"\"")
                if code.firstMatch(of: unwrap) != nil { uses.append("\(file.path):\(index + 1): \(Self.trimmed(raw))") }
            }
        }
        #expect(uses.isEmpty, "force-unwraps in the HTTP engine:\n\(uses.joined(separator: "\n"))")
        // The scan itself must see what it looks for.
        for sample in ["write(fd, buffer.baseAddress! + offset, count)", "let p = storage!", "f(x)!.y"] {
            #expect(sample.firstMatch(of: unwrap) != nil, "the scan misses \(sample)")
        }
        for sample in ["if a != b {", "guard !closed else", "let x = !flag"] {
            #expect(sample.firstMatch(of: unwrap) == nil, "the scan flags \(sample)")
        }
    }

    /// The generic modules (the HTTP engine, CMS, the HTTPS client, multipart, templates, QR codes
    /// and their C shims) say nothing about betactl: its commands and wording live in BetaKit,
    /// BetaWeb and the CLI, which map the generic errors into their own.
    @Test func genericModulesNeverNameBetactl() throws {
        let generic = ["BetaServer", "CryptoCMS", "HTTPClient", "Multipart", "Mustache", "QRCode", "CCrypto", "CCurl", "CLibraryLoader", "CSystemShim"]
        var mentions: [String] = []
        for module in generic {
            let folder = Self.root.appendingPathComponent("Sources/\(module)").path
            let enumerator = try #require(FileManager.default.enumerator(atPath: folder), "Sources/\(module)")
            while let relative = enumerator.nextObject() as? String {
                guard relative.hasSuffix(".swift") || relative.hasSuffix(".h") || relative.hasSuffix(".modulemap") else { continue }
                let text = try String(contentsOfFile: folder + "/" + relative, encoding: .utf8)
                for (index, line) in text.components(separatedBy: "\n").enumerated() where line.localizedCaseInsensitiveContains("betactl") {
                    mentions.append("Sources/\(module)/\(relative):\(index + 1): \(Self.trimmed(line))")
                }
            }
        }
        #expect(mentions.isEmpty, "generic modules name betactl:\n\(mentions.joined(separator: "\n"))")
    }
}
