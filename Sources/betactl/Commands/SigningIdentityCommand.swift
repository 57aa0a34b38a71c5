import AppleFormats
import BetaKit
import BetaJSON
import CryptoCMS

/// `betactl signing-identity`: the certificate and key enrolment profiles are signed with.
enum SigningIdentityCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "signing-identity", summary: "Import, show or remove the identity enrolment profiles are signed with.",
        arguments: [
            ArgumentSpec(name: "ACTION", help: "import, show (the default) or remove.", isOptional: true),
            ArgumentSpec(name: "FILE", help: "For import: CERT.pem KEY.pem, a PEM holding both, or a .p12.", isOptional: true, isRepeated: true),
        ],
        options: [.value("--password-file", "F", "The .p12 password, or an encrypted key's passphrase, on the first line of F."), .json],
        discussion: "With an identity, the device enrolment profile testers download is signed (CMS, through the system's libcrypto), so a device that trusts the certificate shows it as Verified; without one it is served unsigned and shows Not Verified, which works the same. The certificate file may carry the chain after the signing certificate; the key is stored unencrypted in the home, which only its user can read.",
        group: .server)

    static func run(_ invocation: Invocation) async throws {
        try IdentityFiles.runAction(invocation, command: spec.name, importNeeds: "CERT.pem KEY.pem, one PEM holding both, or a .p12 file",
                                    importing: importIdentity, show: show, remove: remove)
    }

    static func importIdentity(_ invocation: Invocation, files: [String]) throws {
        let identity = try IdentityFiles.identity(invocation, files: files, command: spec.name)
        let home = try invocation.openHome()
        let stored = try SigningIdentityStore(home: home).save(certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM,
                                                               certificateDER: identity.certificateDER, chainCount: identity.chainCount,
                                                               now: invocation.now)
        let chain = stored.chainCount == 0 ? "no chain certificates" : "\(stored.chainCount) chain certificate\(stored.chainCount == 1 ? "" : "s")"
        invocation.print("Imported signing identity “\(stored.subject)” (expires \(CalendarDate(stored.expiresAt)), \(chain)).")
        invocation.print("Enrolment profiles are served signed from now on; a running server picks it up within a second.")
        warnAboutExpiry(invocation, stored)
    }

    static func show(_ invocation: Invocation) throws {
        let home = try invocation.openHome()
        guard let stored = try SigningIdentityStore(home: home).current() else {
            if invocation.arguments.flag("--json") {
                invocation.print("null")
            } else {
                invocation.print("No signing identity: enrolment profiles are served unsigned (Settings shows them as Not Verified, and they work the same).")
                invocation.print(invocation.style.dim("Import one with `betactl signing-identity import CERT.pem KEY.pem` (or a .p12 with --password-file)."))
            }
            return
        }
        let loadError = CryptoLibrary.loadError
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(EnrollmentJSON.signingIdentity(stored, canSign: loadError == nil, now: invocation.now))
            return
        }
        invocation.print("signing identity “\(stored.subject)”")
        invocation.print("  expires  \(CalendarDate(stored.expiresAt))")
        invocation.print("  chain    \(stored.chainCount) certificate\(stored.chainCount == 1 ? "" : "s")")
        invocation.print("  imported \(CalendarDate(stored.importedAt))")
        if let loadError {
            invocation.warn("libcrypto cannot be loaded (\(loadError)), so enrolment profiles are served unsigned; install OpenSSL (Debian and Ubuntu: libssl3)")
        }
        warnAboutExpiry(invocation, stored)
    }

    static func remove(_ invocation: Invocation) throws {
        let home = try invocation.openHome()
        guard try SigningIdentityStore(home: home).remove() else {
            throw CommandFailure(description: "no signing identity is stored, so there is nothing to remove; `betactl signing-identity show` says what is there")
        }
        invocation.print("Removed the signing identity; enrolment profiles are served unsigned from now on.")
    }

    static func warnAboutExpiry(_ invocation: Invocation, _ stored: StoredSigningIdentity) {
        let days = Int((stored.expiresAt.timeIntervalSince(invocation.now) / 86_400).rounded(.down))
        if days < 0 {
            invocation.warn("the certificate expired on \(CalendarDate(stored.expiresAt)); devices show the profile as Not Verified until you import a current one")
        } else if days < 30 {
            invocation.warn("the certificate expires in \(days) day\(days == 1 ? "" : "s") (\(CalendarDate(stored.expiresAt))); import its successor before then")
        }
    }
}
