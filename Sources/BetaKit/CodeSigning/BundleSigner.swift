#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Re-signs an app bundle on disk as codesign does: nested code first (dylibs and frameworks,
/// then app extensions and watch apps), each app and extension with the new profile embedded and
/// entitlements derived from its own, `_CodeSignature/CodeResources` sealing every file, and the
/// main executable last. Mach-O code and UUIDs are untouched; only signatures change.
public struct BundleSigner: Sendable {
    /// Makes the CMS blobs.
    public var cms: any CodeSignatureCMSSigning
    /// The new profile, parsed and as bytes (embedded as `embedded.mobileprovision`).
    public var profile: ProvisioningProfile
    /// The profile file's bytes.
    public var profileBytes: [UInt8]
    /// Profiles for nested bundles by bundle id (an extension's own ad hoc profile), parsed and as
    /// bytes; a bundle without one here gets `profile`.
    public var nestedProfiles: [String: (profile: ProvisioningProfile, bytes: [UInt8])] = [:]

    /// A signer embedding `profileBytes` (`profile` parsed) and signing through `cms`.
    public init(cms: any CodeSignatureCMSSigning, profile: ProvisioningProfile, profileBytes: [UInt8]) {
        self.cms = cms
        self.profile = profile
        self.profileBytes = profileBytes
    }

    /// Re-signs the app at `path` (`name` is how messages call it, such as `Payload/App.app`).
    public func sign(appAt path: String, name: String) throws(ResignError) {
        _ = try signBundle(path, name: name, isFramework: false)
    }

    /// Signs the bundle at `path` and returns its executable's CDHash.
    func signBundle(_ path: String, name: String, isFramework: Bool) throws(ResignError) -> [UInt8] {
        var nested: [String: CodeResourcesWriter.Item] = [:]
        let verifier = BundleSignatureVerifier(cms: nil)
        let directoryFiles: DirectorySignatureFiles
        do { directoryFiles = try DirectorySignatureFiles(path: path) } catch {
            throw ResignError.unreadableBundle(path: name, reason: "\(error)")
        }
        let root = directoryFiles.entries.keys.first.map { String($0.prefix { $0 != "/" }) } ?? ""
        for bundle in verifier.nestedBundles(in: root, files: directoryFiles) {
            let relative = String(bundle.dropFirst(root.count + 1))
            let cdHash = try signBundle(path + "/" + relative, name: name + "/" + relative, isFramework: relative.hasSuffix(".framework"))
            nested[relative] = .nested(cdHash: cdHash, requirement: "identifier \"\(relative)\" and anchor apple generic")
        }
        for dylib in verifier.nestedDylibs(in: root, files: directoryFiles) {
            let relative = String(dylib.dropFirst(root.count + 1))
            let file = String(relative.split(separator: "/").last ?? Substring(relative))
            let identifier = file.hasSuffix(".dylib") ? String(file.dropLast(6)) : file
            let cdHash = try signFile(path + "/" + relative, name: name + "/" + relative, parameters: .init(identifier: identifier, teamIdentifier: team))
            nested[relative] = .nested(cdHash: cdHash, requirement: "identifier \"\(identifier)\" and anchor apple generic")
        }
        let infoBytes = try read(path + "/Info.plist", name: name + "/Info.plist")
        let info: BundleInfo
        do { info = try BundleInfo(bytes: infoBytes) } catch { throw ResignError.unreadableBundle(path: name + "/Info.plist", reason: "\(error)") }
        guard let executable = info.executableName else {
            throw ResignError.unreadableBundle(path: name, reason: "its Info.plist names no CFBundleExecutable")
        }
        var parameters = MachOSigner.Parameters(identifier: info.bundleIdentifier, teamIdentifier: team, infoPlist: infoBytes)
        if !isFramework {
            let original = try originalEntitlements(path + "/" + executable, name: name + "/" + executable)
            let own = nestedProfiles[info.bundleIdentifier] ?? (profile, profileBytes)
            let entitlements = try ResignEntitlements.derive(original, bundleID: info.bundleIdentifier, bundle: name, profile: own.profile)
            do {
                parameters.entitlementsXML = try PlistValue.dictionary(entitlements).xmlBytes()
            } catch {
                throw ResignError.unreadableBundle(path: name, reason: "its entitlements cannot be written: \(error)")
            }
            parameters.entitlementsDER = EntitlementsDER.encode(entitlements)
            try write(own.bytes, to: path + "/embedded.mobileprovision", name: name)
        }
        // The seal: every file but the executable and _CodeSignature/, nested code by CDHash.
        var items = nested
        for (relative, item) in try listing(path, name: name) where relative != executable && !relative.hasPrefix("_CodeSignature/") {
            if nested.keys.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) { continue }
            items[relative] = item
        }
        let resources: [UInt8]
        do { resources = try CodeResourcesWriter.write(items) } catch {
            throw ResignError.unreadableBundle(path: name, reason: "its CodeResources cannot be written: \(error)")
        }
        try createDirectory(path + "/_CodeSignature", name: name)
        try write(resources, to: path + "/_CodeSignature/CodeResources", name: name)
        parameters.codeResources = resources
        return try signFile(path + "/" + executable, name: name + "/" + executable, parameters: parameters)
    }

    var team: String? { profile.teamIdentifiers.first }

    /// Signs one Mach-O in place and returns its primary CDHash, refusing if a UUID changed.
    func signFile(_ path: String, name: String, parameters: MachOSigner.Parameters) throws(ResignError) -> [UInt8] {
        let original = try read(path, name: name)
        let signed: [UInt8]
        do { signed = try MachOSigner(cms: cms).sign(original, path: name, parameters: parameters) } catch {
            throw ResignError.signing(error)
        }
        guard Self.uuids(original) == Self.uuids(signed) else { throw ResignError.uuidChanged(path: name) }
        try write(signed, to: path, name: name)
        let result = signed.withUnsafeBytes { MachOSignatureVerifier(cms: nil).verify($0, path: name) }
        return result.cdHashes.first ?? []
    }

    /// The LC_UUID of every slice.
    static func uuids(_ file: [UInt8]) -> [UUID?] {
        file.withUnsafeBytes { raw in
            guard let header = try? MachOFile(bytes: raw) else { return [] }
            return header.slices.map { (try? MachOImage(bytes: MachOFile.bytes(of: $0, in: raw)))?.uuid }
        }
    }

    func originalEntitlements(_ path: String, name: String) throws(ResignError) -> [String: PlistValue] {
        let bytes = try read(path, name: name)
        let signature: CodeSignature? = bytes.withUnsafeBytes { raw in
            guard let header = try? MachOFile(bytes: raw), let slice = header.slices.first else { return nil }
            let sliceBytes = MachOFile.bytes(of: slice, in: raw)
            guard let image = try? MachOImage(bytes: sliceBytes), let blob = image.codeSignatureBytes(in: sliceBytes) else { return nil }
            return try? CodeSignature(bytes: blob)
        }
        do { return try signature?.entitlements() ?? [:] } catch {
            throw ResignError.unreadableBundle(path: name, reason: "\(error)")
        }
    }

    /// Every file and link of the bundle, by path relative to it.
    func listing(_ path: String, name: String) throws(ResignError) -> [String: CodeResourcesWriter.Item] {
        let files: DirectorySignatureFiles
        do { files = try DirectorySignatureFiles(path: path) } catch { throw ResignError.unreadableBundle(path: name, reason: "\(error)") }
        var items: [String: CodeResourcesWriter.Item] = [:]
        for (key, entry) in files.entries {
            guard let slash = key.firstIndex(of: "/") else { continue }
            let relative = String(key[key.index(after: slash)...])
            switch entry {
            case .file: items[relative] = .file(try read(path + "/" + relative, name: name + "/" + relative))
            case let .symbolicLink(target): items[relative] = .symbolicLink(target)
            }
        }
        return items
    }

    func read(_ path: String, name: String) throws(ResignError) -> [UInt8] {
        do { return try MappedFile(path: path).withBytes { Array($0) } } catch {
            throw ResignError.unreadableBundle(path: name, reason: "\(error)")
        }
    }

    func write(_ bytes: [UInt8], to path: String, name: String) throws(ResignError) {
        do { try Data(bytes).write(to: URL(fileURLWithPath: path)) } catch {
            throw ResignError.unreadableBundle(path: name, reason: "\(path) could not be written: \(error)")
        }
    }

    func createDirectory(_ path: String, name: String) throws(ResignError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw ResignError.unreadableBundle(path: name, reason: "\(error)")
        }
    }
}
