@testable import AppleFormats
import Testing

/// The CodeResources seal on an in-memory bundle: what CodeResourcesWriter seals, the verifier
/// accepts, and each kind of change is refused naming the file.
@Suite("CodeResources seal")
struct ResourceSealTests {
    /// A bundle held in memory.
    struct MemoryFiles: CodeSignatureFileAccess {
        var files: [String: [UInt8]] = [:]
        var links: [String: String] = [:]
        var entries: [String: CodeSignatureFileEntry] {
            var all: [String: CodeSignatureFileEntry] = [:]
            for (path, bytes) in files { all[path] = .file(size: UInt64(bytes.count)) }
            for (path, target) in links { all[path] = .symbolicLink(target: target) }
            return all
        }

        func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
            guard let bytes = files[path] else { throw CodeSignatureError.malformed("no \(path)") }
            return try bytes.withUnsafeBytes { try body($0) }
        }
    }

    static let nestedHash = [UInt8](repeating: 7, count: 20)

    /// A sealed bundle: resources, a localized file, a link, a nested framework (by CDHash).
    static func sealed() throws -> MemoryFiles {
        var bundle = MemoryFiles()
        bundle.files["App.app/App"] = [1, 2, 3]
        bundle.files["App.app/Info.plist"] = Array("<plist/>".utf8)
        bundle.files["App.app/data.json"] = Array("{}".utf8)
        bundle.files["App.app/en.lproj/Main.strings"] = Array("x".utf8)
        bundle.files["App.app/Frameworks/Kit.framework/Kit"] = [9]
        bundle.links["App.app/current.json"] = "data.json"
        let resources = try CodeResourcesWriter.write([
            "Info.plist": .file(bundle.files["App.app/Info.plist"] ?? []), "data.json": .file(Array("{}".utf8)),
            "en.lproj/Main.strings": .file(Array("x".utf8)), "current.json": .symbolicLink("data.json"),
            "Frameworks/Kit.framework": .nested(cdHash: nestedHash, requirement: "identifier \"Kit\""),
        ])
        bundle.files["App.app/_CodeSignature/CodeResources"] = resources
        return bundle
    }

    static func problems(_ bundle: MemoryFiles, nested: [[UInt8]] = [nestedHash]) throws -> [CodeSignatureProblem] {
        var problems: [CodeSignatureProblem] = []
        ResourceSealVerifier(root: "App.app", executableName: "App", nested: ["Frameworks/Kit.framework": nested], files: bundle)
            .verify(try #require(bundle.files["App.app/_CodeSignature/CodeResources"]), resourcesPath: "App.app/_CodeSignature/CodeResources",
                    into: &problems)
        return problems
    }

    @Test("What the writer seals verifies; Info.plist is left to the executable's special slot; .DS_Store may be added")
    func verifies() throws {
        var bundle = try Self.sealed()
        bundle.files["App.app/.DS_Store"] = [0]
        #expect(try Self.problems(bundle) == [])
        let plist = try PlistValue(parsing: try #require(bundle.files["App.app/_CodeSignature/CodeResources"]))
        let files2 = try #require(plist.dictionary?["files2"]?.dictionary)
        #expect(files2["Info.plist"] == nil)
        #expect(files2["en.lproj/Main.strings"]?.dictionary?["optional"] == .bool(true))
        #expect(files2["current.json"]?.dictionary?["symlink"] == .string("data.json"))
    }

    @Test("A changed link, a changed file, a missing file, an added file and changed nested code are each refused by name")
    func refusesChanges() throws {
        var bundle = try Self.sealed()
        bundle.links["App.app/current.json"] = "en.lproj/Main.strings"
        bundle.files["App.app/data.json"] = Array("{\"a\":1}".utf8)
        bundle.files["App.app/en.lproj/Main.strings"] = nil  // optional: may go
        bundle.files["App.app/extra.bin"] = [0]
        let problems = try Self.problems(bundle, nested: [[UInt8](repeating: 8, count: 20)])
        #expect(problems.contains(CodeSignatureProblem(path: "App.app/current.json", cause: .symbolicLinkChanged(expected: "data.json"))))
        #expect(problems.contains(CodeSignatureProblem(path: "App.app/data.json", cause: .resourceChanged)))
        #expect(problems.contains(CodeSignatureProblem(path: "App.app/extra.bin", cause: .resourceAdded)))
        #expect(problems.contains(CodeSignatureProblem(path: "App.app/Frameworks/Kit.framework", cause: .nestedCodeChanged)))
        #expect(problems.count == 4, "\(problems)")
        var missing = try Self.sealed()
        missing.files["App.app/data.json"] = nil
        #expect(try Self.problems(missing) == [CodeSignatureProblem(path: "App.app/data.json", cause: .resourceMissing)])
    }

    @Test("Links that climb but stay inside the bundle verify; a link leading out of it is refused by name even when the seal records it")
    func linksOutsideTheBundle() throws {
        var bundle = MemoryFiles()
        bundle.files["App.app/App"] = [1]
        bundle.files["App.app/data.json"] = Array("{}".utf8)
        bundle.files["App.app/Versions/A/Headers/Kit.h"] = Array("int kit(void);".utf8)
        bundle.links = ["App.app/Versions/Current": "A", "App.app/Headers": "Versions/Current/Headers",
                        "App.app/Versions/A/Sub/up.json": "../../../data.json", "App.app/Versions/A/here": "./Headers/../Headers/Kit.h"]
        func seal(_ bundle: inout MemoryFiles) throws {
            var items: [String: CodeResourcesWriter.Item] = [:]
            for (path, bytes) in bundle.files where path != "App.app/App" && !path.hasPrefix("App.app/_CodeSignature/") { items[String(path.dropFirst(8))] = .file(bytes) }
            for (path, target) in bundle.links { items[String(path.dropFirst(8))] = .symbolicLink(target) }
            bundle.files["App.app/_CodeSignature/CodeResources"] = try CodeResourcesWriter.write(items)
        }
        try seal(&bundle)
        #expect(try Self.problems(bundle) == [])

        bundle.links["App.app/Versions/A/escape"] = "../../../Other.app/data"
        bundle.links["App.app/passwd"] = "/etc/passwd"
        try seal(&bundle)
        #expect(try Self.problems(bundle) == [
            CodeSignatureProblem(path: "App.app/Versions/A/escape", cause: .symbolicLinkOutsideBundle(target: "../../../Other.app/data")),
            CodeSignatureProblem(path: "App.app/passwd", cause: .symbolicLinkOutsideBundle(target: "/etc/passwd")),
        ])
        #expect(CodeSignatureProblem(path: "App.app/passwd", cause: .symbolicLinkOutsideBundle(target: "/etc/passwd")).description
            .contains("make it a relative link to a file inside the bundle"))
    }

    /// A bundle whose SHA-256s the caller already knows; reading a file with a known hash fails.
    struct KnownFiles: CodeSignatureFileAccess {
        var files: MemoryFiles
        var known: [String: [UInt8]]
        var entries: [String: CodeSignatureFileEntry] { files.entries }
        func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
            guard known[path] == nil else { throw CodeSignatureError.malformed("\(path) was read although its hash is known") }
            return try files.withContents(of: path, body)
        }
        func knownSHA256(of path: String) -> [UInt8]? { known[path] }
    }

    @Test("A known SHA-256 stands for the file: the seal is checked against it without reading the file, and a wrong one is refused")
    func knownHashesAreUsed() throws {
        let bundle = try Self.sealed()
        let right = SHA256.hash(Array("{}".utf8)).bytes
        func problems(_ known: [String: [UInt8]]) throws -> [CodeSignatureProblem] {
            var problems: [CodeSignatureProblem] = []
            ResourceSealVerifier(root: "App.app", executableName: "App", nested: ["Frameworks/Kit.framework": [Self.nestedHash]],
                                 files: KnownFiles(files: bundle, known: known))
                .verify(try #require(bundle.files["App.app/_CodeSignature/CodeResources"]), resourcesPath: "App.app/_CodeSignature/CodeResources",
                        into: &problems)
            return problems
        }
        #expect(try problems(["App.app/data.json": right]) == [])
        #expect(try problems(["App.app/data.json": [UInt8](repeating: 0, count: 32)])
            == [CodeSignatureProblem(path: "App.app/data.json", cause: .resourceChanged)])
    }

    @Test("A file sealed by its streamed hashes is sealed exactly as one sealed by its bytes")
    func digestsSealLikeBytes() throws {
        let bytes = (0 ..< 70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let byBytes = try CodeResourcesWriter.write(["a/b.bin": .file(bytes), "en.lproj/x.strings": .file([1])])
        let byDigests = try CodeResourcesWriter.write([
            "a/b.bin": .digests(sha1: SHA1.hash(bytes).bytes, sha256: SHA256.hash(bytes).bytes),
            "en.lproj/x.strings": .digests(sha1: SHA1.hash([1]).bytes, sha256: SHA256.hash([1]).bytes),
        ])
        #expect(byBytes == byDigests)
    }

    @Test("The designated requirement is Apple's compiled form: identifier, anchor apple generic, leaf CN, WWDR marker")
    func requirement() {
        let blob = CodeRequirement.designated(identifier: "com.example.app", leafCommonName: "iPhone Distribution: Example (ABCDE12345)")
        #expect(Array(blob.prefix(4)) == [0xfa, 0xde, 0x0c, 0x01])
        #expect(blob.count % 4 == 0)
        #expect(blob.count == Int(UInt32(blob[4]) << 24 | UInt32(blob[5]) << 16 | UInt32(blob[6]) << 8 | UInt32(blob[7])))
        #expect(blob.count == 20 + 12 + 4 * 3 + (4 + 16) + 4 + 4 * 3 + (4 + 12) + 4 + (4 + 44) + 4 * 2 + (4 + 12) + 4)
    }

    @Test("DER entitlements sort keys bytewise and nest dictionaries in the [16] form")
    func derEntitlements() throws {
        let der = try #require(EntitlementsDER.encode(["b": .bool(true), "a": .array([.string("x")]), "c": .dictionary(["k": .integer(300)])]))
        let value = try PlistValue(derBytes: der)
        #expect(value == .dictionary(["b": .bool(true), "a": .array([.string("x")]), "c": .dictionary(["k": .integer(300)])]))
        let aIndex = try #require(der.firstIndex(of: UInt8(ascii: "a"))), bIndex = try #require(der.firstIndex(of: UInt8(ascii: "b")))
        #expect(aIndex < bIndex)
        #expect(EntitlementsDER.encode(["d": .real(1.5)]) == nil)
    }
}

/// Untrusted rules: patterns codesign never writes are ignored, so none can take exponential time.
@Suite("CodeResources rules")
struct ResourceRulesTests {
    @Test("A pattern codesign does not write is ignored, however it would match")
    func ignoresUnknownPatterns() {
        let rules = ResourceRules(["^(a+)+$": .dictionary(["omit": .bool(true), "weight": .real(5000)]), "^.*": .bool(true)])
        #expect(rules.rules.map(\.pattern) == ["^.*"])
        #expect(rules.rule(for: String(repeating: "a", count: 40) + "!")?.omit == false)
    }

    @Test("codesign's own rules decide as codesign does: heaviest first, an omission winning a tie")
    func standardRules() {
        let rules = ResourceRules(CodeResourcesWriter.rules2)
        #expect(rules.rules.count == CodeResourcesWriter.rules2.count)
        #expect(rules.rule(for: "Info.plist")?.omit == true)
        #expect(rules.rule(for: "Base.lproj/Main.storyboardc/Info.plist")?.optional == false)
        #expect(rules.rule(for: "fr.lproj/Localizable.strings")?.optional == true)
        #expect(rules.rule(for: "Frameworks/Kit.framework")?.nested == true)
        #expect(rules.rule(for: "Sub/.DS_Store")?.omit == true)
    }
}
