import AppleFormats

/// Where the app and the DWARF files are inside an input, and what kind of input it is.
struct InputLayout {
    var kind: ArtifactKind
    var appRoot: String?
    var dwarfPaths: [String]

    static func detect(_ source: any BundleSource, path: String, isZip: Bool) throws -> InputLayout {
        let paths = source.files.keys.sorted()
        let dwarf = paths.filter { isDWARFPath($0) }
        // An .ipa holds Payload/<Name>.app; tools that zip a folder add one directory level above it.
        var payloadApps: [String] = []
        var sawPayload = false
        for candidate in paths {
            let parts = candidate.split(separator: "/", omittingEmptySubsequences: false)
            guard let index = parts.firstIndex(of: "Payload"), index <= 1, parts.count > index + 1 else { continue }
            sawPayload = true
            if parts[index + 1].hasSuffix(".app"), parts.count > index + 2 {
                let root = parts[0 ... index + 1].joined(separator: "/")
                if !payloadApps.contains(root) { payloadApps.append(root) }
            }
        }
        if let zip = source as? ZipBundleSource, zip.archive.entries.contains(where: { $0.name == "Payload/" || $0.name.hasPrefix("Payload/") }) {
            sawPayload = true
        }
        if !payloadApps.isEmpty {
            guard payloadApps.count == 1 else {
                throw IngestError.unrecognized(path: path, reason: "it holds \(payloadApps.count) app bundles (\(payloadApps.joined(separator: ", "))); an .ipa holds exactly one")
            }
            return InputLayout(kind: .ipa, appRoot: payloadApps[0], dwarfPaths: [])
        }
        if sawPayload {
            throw IngestError.noAppBundle(path: path, detail: "its Payload folder has no .app inside")
        }
        // An .xcarchive: <Name>.xcarchive/Products/Applications/<App>.app/…
        for candidate in paths {
            let parts = candidate.split(separator: "/")
            guard let products = parts.firstIndex(of: "Products"), products <= 1, parts.count > products + 3,
                  parts[products + 1] == "Applications", parts[products + 2].hasSuffix(".app") else { continue }
            let root = parts[0 ... products + 2].joined(separator: "/")
            return InputLayout(kind: .xcarchive, appRoot: root, dwarfPaths: dwarf.filter { $0.contains("dSYMs/") || !$0.hasPrefix(root) })
        }
        if paths.contains(where: { $0.split(separator: "/").prefix(2).last == "Products" || $0.hasSuffix(".xcarchive/Info.plist") }) {
            throw IngestError.noAppBundle(path: path, detail: "the .xcarchive has no Products/Applications/<Name>.app; archive an app target, not a framework")
        }
        if !dwarf.isEmpty {
            return InputLayout(kind: .dsym, appRoot: nil, dwarfPaths: dwarf)
        }
        let reason = isZip
            ? "the zip holds neither Payload/<Name>.app, an .xcarchive nor a .dSYM"
            : "the folder is neither an .xcarchive (Products/Applications) nor a .dSYM (Contents/Resources/DWARF)"
        throw IngestError.unrecognized(path: path, reason: reason)
    }

    static func isDWARFPath(_ path: String) -> Bool {
        guard let range = path.firstRange(of: ".dSYM/Contents/Resources/DWARF/") else { return false }
        let rest = path[range.upperBound...]
        return !rest.isEmpty && !rest.contains("/") && !rest.hasPrefix(".")
    }
}
