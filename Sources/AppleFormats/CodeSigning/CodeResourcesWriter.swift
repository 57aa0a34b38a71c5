/// Writes a bundle's `_CodeSignature/CodeResources` as codesign does for iOS: `files` (SHA-1, the
/// legacy seal) and `files2` (SHA-1 and SHA-256, symbolic links, nested code by CDHash), with
/// codesign's standard `rules` and `rules2`.
public enum CodeResourcesWriter {
    /// One sealed item, by path relative to the bundle.
    public enum Item: Sendable, Equatable {
        /// A regular file's contents.
        case file([UInt8])
        /// A regular file by its SHA-1 and SHA-256, hashed as it streamed by.
        case digests(sha1: [UInt8], sha256: [UInt8])
        /// A symbolic link and its target.
        case symbolicLink(String)
        /// Nested code (a bundle or a dylib) by its CDHash and designated requirement text.
        case nested(cdHash: [UInt8], requirement: String)
    }

    /// codesign's iOS `rules` (the legacy seal).
    public static let rules: [String: PlistValue] = [
        "^.*": .bool(true),
        "^.*\\.lproj/": .dictionary(["optional": .bool(true), "weight": .real(1000)]),
        "^.*\\.lproj/locversion.plist$": .dictionary(["omit": .bool(true), "weight": .real(1100)]),
        "^Base\\.lproj/": .dictionary(["weight": .real(1010)]),
        "^version.plist$": .bool(true),
    ]

    /// codesign's iOS `rules2`.
    public static let rules2: [String: PlistValue] = [
        ".*\\.dSYM($|/)": .dictionary(["weight": .real(11)]),
        "^(.*/)?\\.DS_Store$": .dictionary(["omit": .bool(true), "weight": .real(2000)]),
        "^.*": .bool(true),
        "^.*\\.lproj/": .dictionary(["optional": .bool(true), "weight": .real(1000)]),
        "^.*\\.lproj/locversion.plist$": .dictionary(["omit": .bool(true), "weight": .real(1100)]),
        "^Base\\.lproj/": .dictionary(["weight": .real(1010)]),
        "^Info\\.plist$": .dictionary(["omit": .bool(true), "weight": .real(20)]),
        "^PkgInfo$": .dictionary(["omit": .bool(true), "weight": .real(20)]),
        "^embedded\\.provisionprofile$": .dictionary(["weight": .real(20)]),
        "^version\\.plist$": .dictionary(["weight": .real(20)]),
        "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS|Library/(Automator|Spotlight|LoginItems))/":
            .dictionary(["nested": .bool(true), "weight": .real(10)]),
        "^[^/]+$": .dictionary(["nested": .bool(true), "weight": .real(10)]),
    ]

    /// The CodeResources plist sealing `items` (the main executable and `_CodeSignature/` must not be among them).
    public static func write(_ items: [String: Item]) throws(PlistError) -> [UInt8] {
        let rules2 = ResourceRules(Self.rules2)
        let legacy = ResourceRules(Self.rules)
        var files: [String: PlistValue] = [:]
        var files2: [String: PlistValue] = [:]
        for (path, item) in items {
            let rule2 = rules2.rule(for: path)
            let optional = rule2?.optional == true
            switch item {
            case .file, .digests:
                let sha1: [UInt8], sha256: [UInt8]
                switch item {
                case let .file(bytes): (sha1, sha256) = (SHA1.hash(bytes).bytes, SHA256.hash(bytes).bytes)
                case let .digests(fileSHA1, fileSHA256): (sha1, sha256) = (fileSHA1, fileSHA256)
                default: continue
                }
                if legacy.rule(for: path)?.omit != true {
                    files[path] = optional ? .dictionary(["hash": .data(sha1), "optional": .bool(true)]) : .data(sha1)
                }
                guard rule2?.omit != true else { continue }
                var entry: [String: PlistValue] = ["hash": .data(sha1), "hash2": .data(sha256)]
                if optional { entry["optional"] = .bool(true) }
                files2[path] = .dictionary(entry)
            case let .symbolicLink(target):
                guard rule2?.omit != true else { continue }
                files2[path] = .dictionary(["symlink": .string(target)])
            case let .nested(cdHash, requirement):
                files2[path] = .dictionary(["cdhash": .data(cdHash), "requirement": .string(requirement)])
            }
        }
        return try XMLPlistWriter.write(.dictionary(["files": .dictionary(files), "files2": .dictionary(files2),
                                                     "rules": .dictionary(Self.rules), "rules2": .dictionary(Self.rules2)]))
    }
}
