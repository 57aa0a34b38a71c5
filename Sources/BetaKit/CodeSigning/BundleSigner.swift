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

    /// Re-signs the app folder at `path` in place (`name` is how messages call it, such as `Payload/App.app`).
    public func sign(appAt path: String, name: String) throws(ResignError) {
        let workspace: DirectorySigningWorkspace
        do { workspace = try DirectorySigningWorkspace(path: path) } catch { throw ResignError.unreadableBundle(path: name, reason: "\(error)") }
        _ = try signBundle(workspace.root, name: name, in: workspace, isFramework: false)
    }

    /// Re-signs the app whose root is `root` (such as `Payload/App.app`) in `workspace`.
    func sign(appAt root: String, in workspace: some SigningWorkspace) throws(ResignError) {
        _ = try signBundle(root, name: root, in: workspace, isFramework: false)
    }

    /// Signs the bundle at `root` of `workspace` (`name` in messages) and returns its executable's CDHash.
    func signBundle(_ root: String, name: String, in workspace: some SigningWorkspace, isFramework: Bool) throws(ResignError) -> [UInt8] {
        var nested: [String: CodeResourcesWriter.Item] = [:]
        let verifier = BundleSignatureVerifier(cms: nil)
        for bundle in verifier.nestedBundles(in: root, files: workspace) {
            let relative = String(bundle.dropFirst(root.count + 1))
            let cdHash = try signBundle(bundle, name: name + "/" + relative, in: workspace, isFramework: relative.hasSuffix(".framework"))
            nested[relative] = .nested(cdHash: cdHash, requirement: "identifier \"\(relative)\" and anchor apple generic")
        }
        for dylib in verifier.nestedDylibs(in: root, files: workspace) {
            let relative = String(dylib.dropFirst(root.count + 1))
            let file = String(relative.split(separator: "/").last ?? Substring(relative))
            let identifier = file.hasSuffix(".dylib") ? String(file.dropLast(6)) : file
            let cdHash = try signFile(dylib, name: name + "/" + relative, parameters: .init(identifier: identifier, teamIdentifier: team), in: workspace)
            nested[relative] = .nested(cdHash: cdHash, requirement: "identifier \"\(identifier)\" and anchor apple generic")
        }
        let infoBytes = try read(root + "/Info.plist", name: name + "/Info.plist", in: workspace)
        let info: BundleInfo
        do { info = try BundleInfo(bytes: infoBytes) } catch { throw ResignError.unreadableBundle(path: name + "/Info.plist", reason: "\(error)") }
        guard let executable = info.executableName else {
            throw ResignError.unreadableBundle(path: name, reason: "its Info.plist names no CFBundleExecutable")
        }
        var parameters = MachOSigner.Parameters(identifier: info.bundleIdentifier, teamIdentifier: team, infoPlist: infoBytes)
        if !isFramework {
            let original = try originalEntitlements(root + "/" + executable, name: name + "/" + executable, in: workspace)
            let own = nestedProfiles[info.bundleIdentifier] ?? (profile, profileBytes)
            let entitlements = try ResignEntitlements.derive(original, bundleID: info.bundleIdentifier, bundle: name, profile: own.profile)
            do {
                parameters.entitlementsXML = try PlistValue.dictionary(entitlements).xmlBytes()
            } catch {
                throw ResignError.unreadableBundle(path: name, reason: "its entitlements cannot be written: \(error)")
            }
            parameters.entitlementsDER = EntitlementsDER.encode(entitlements)
            try write(own.bytes, to: root + "/embedded.mobileprovision", name: name, in: workspace)
        }
        // The seal: every file but the executable and _CodeSignature/, nested code by CDHash.
        let skipped = Set(nested.keys)
        var items = nested
        for (relative, item) in try listing(root, name: name, in: workspace, skipping: { relative in
            relative == executable || relative.hasPrefix("_CodeSignature/")
                || skipped.contains(relative) || skipped.contains { relative.hasPrefix($0 + "/") }
        }) {
            items[relative] = item
        }
        let resources: [UInt8]
        do { resources = try CodeResourcesWriter.write(items) } catch {
            throw ResignError.unreadableBundle(path: name, reason: "its CodeResources cannot be written: \(error)")
        }
        try write(resources, to: root + "/_CodeSignature/CodeResources", name: name, in: workspace)
        parameters.codeResources = resources
        return try signFile(root + "/" + executable, name: name + "/" + executable, parameters: parameters, in: workspace)
    }

    var team: String? { profile.teamIdentifiers.first }

    /// Signs one Mach-O in place and returns its primary CDHash, refusing if a UUID changed.
    func signFile(_ path: String, name: String, parameters: MachOSigner.Parameters, in workspace: some SigningWorkspace) throws(ResignError) -> [UInt8] {
        let original = try read(path, name: name, in: workspace)
        let signed: [UInt8]
        do { signed = try MachOSigner(cms: cms).sign(original, path: name, parameters: parameters) } catch {
            throw ResignError.signing(error)
        }
        guard Self.uuids(original) == Self.uuids(signed) else { throw ResignError.uuidChanged(path: name) }
        try write(signed, to: path, name: name, in: workspace)
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

    func originalEntitlements(_ path: String, name: String, in workspace: some SigningWorkspace) throws(ResignError) -> [String: PlistValue] {
        let bytes = try read(path, name: name, in: workspace)
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

    /// Every file (by its hashes) and link of the bundle at `root` but those `skipping` names, by
    /// path relative to it. A link leading out of the bundle is refused, as codesign refuses it.
    func listing(_ root: String, name: String, in workspace: some SigningWorkspace,
                 skipping: (String) -> Bool) throws(ResignError) -> [String: CodeResourcesWriter.Item] {
        var items: [String: CodeResourcesWriter.Item] = [:]
        let prefix = root + "/"
        for (key, entry) in workspace.entries where key.hasPrefix(prefix) {
            let relative = String(key.dropFirst(prefix.count))
            if skipping(relative) { continue }
            switch entry {
            case .file:
                do {
                    let (sha1, sha256) = try workspace.digests(of: key)
                    items[relative] = .digests(sha1: sha1, sha256: sha256)
                } catch {
                    throw ResignError.unreadableBundle(path: name + "/" + relative, reason: "\(error)")
                }
            case let .symbolicLink(target):
                guard CodeSignatureFileEntry.linkStaysInside(link: relative, target: target) else {
                    throw ResignError.linkOutsideBundle(path: name + "/" + relative, target: target)
                }
                items[relative] = .symbolicLink(target)
            }
        }
        return items
    }

    func read(_ path: String, name: String, in workspace: some SigningWorkspace) throws(ResignError) -> [UInt8] {
        do { return try workspace.withContents(of: path) { Array($0) } } catch {
            throw ResignError.unreadableBundle(path: name, reason: "\(error)")
        }
    }

    func write(_ bytes: [UInt8], to path: String, name: String, in workspace: some SigningWorkspace) throws(ResignError) {
        do { try workspace.write(bytes, to: path) } catch {
            throw ResignError.unreadableBundle(path: name, reason: "\(path) could not be written: \(error)")
        }
    }
}
