import AppleFormats
import BetaKit
import CryptoCMS

/// `betactl code-identity`: the Apple distribution certificate and key `resign` signs builds with.
enum CodeIdentityCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "code-identity", summary: "Import, show or remove the distribution certificate builds are re-signed with.",
        arguments: [
            ArgumentSpec(name: "ACTION", help: "import, show (the default) or remove.", isOptional: true),
            ArgumentSpec(name: "FILE", help: "For import: the .p12 exported from Keychain Access (or CERT.pem KEY.pem).", isOptional: true, isRepeated: true),
        ],
        options: [.value("--password-file", "F", "The .p12 password on the first line of F.")],
        discussion: "The Apple Distribution certificate and its key, as Keychain Access exports them (.p12). `resign` signs with it; it is a separate thing from the enrolment signing identity (signing-identity). The key is stored unencrypted in the home, which only its user can read. `show` says when the certificate expires and which imported profiles list it (only those can be used to re-sign).",
        group: .releases)

    static func run(_ invocation: Invocation) async throws {
        try IdentityFiles.runAction(invocation, command: spec.name, importNeeds: "DIST.p12 (or CERT.pem KEY.pem)",
                                    importing: importIdentity, show: show, remove: remove)
    }

    static func importIdentity(_ invocation: Invocation, files: [String]) throws {
        let identity = try IdentityFiles.identity(invocation, files: files, command: spec.name)
        let home = try invocation.openHome()
        let stored = try CodeIdentityStore(home: home).save(certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM,
                                                            certificateDER: identity.certificateDER, chainCount: identity.chainCount,
                                                            now: invocation.now)
        invocation.print("Imported code-signing identity “\(stored.subject)” (expires \(CalendarDate(stored.expiresAt))); `betactl resign` signs with it.")
        try listProfiles(invocation, stored, home: home)
    }

    static func show(_ invocation: Invocation) throws {
        let home = try invocation.openHome()
        guard let stored = try CodeIdentityStore(home: home).current() else {
            invocation.print("No code-signing identity: import the Apple Distribution .p12 with `betactl code-identity import DIST.p12 --password-file F` to re-sign builds.")
            return
        }
        invocation.print("code-signing identity “\(stored.subject)”")
        invocation.print("  SHA-1    \(stored.sha1.uppercased())")
        invocation.print("  expires  \(CalendarDate(stored.expiresAt))")
        invocation.print("  imported \(CalendarDate(stored.importedAt))")
        try listProfiles(invocation, stored, home: home)
    }

    /// The imported profiles whose DeveloperCertificates list the identity's certificate.
    static func listProfiles(_ invocation: Invocation, _ stored: StoredCodeIdentity, home: Home) throws {
        let archive = Archive(home: home)
        var listing: [String] = []
        for profile in try archive.profiles() {
            guard let parsed = try? archive.profile(matching: profile.uuid) else { continue }
            if parsed.developerCertificates.contains(where: { $0.sha1Fingerprint.hex == stored.sha1 }) {
                listing.append("\(parsed.name) (\(parsed.uuid), \(parsed.type.rawValue), expires \(CalendarDate(parsed.expirationDate)))")
            }
        }
        if listing.isEmpty {
            invocation.warn("no imported profile lists this certificate, so no build can be re-signed with it yet; import a profile made with it")
        } else {
            invocation.print("  profiles \(listing.joined(separator: "\n           "))")
        }
        if stored.expiresAt < invocation.now {
            invocation.warn("the certificate expired on \(CalendarDate(stored.expiresAt)); iOS refuses builds signed with it, so import its successor")
        }
    }

    static func remove(_ invocation: Invocation) throws {
        let home = try invocation.openHome()
        guard try CodeIdentityStore(home: home).remove() else {
            throw CommandFailure(description: "no code-signing identity is stored, so there is nothing to remove; `betactl code-identity show` says what is there")
        }
        invocation.print("Removed the code-signing identity; `resign` needs a new one.")
    }
}
