import CryptoCMS

/// Reads a certificate and its key as `signing-identity import` and `code-identity import` take
/// them: CERT.pem KEY.pem, one PEM holding both, or a PKCS #12 (.p12) file.
public enum IdentityImport {
    /// The identity in `certificate` (and `key` when given apart); `password` opens a .p12 or an
    /// encrypted key. `files` and `command` name what was given in the errors.
    public static func identity(certificate: [UInt8], key: [UInt8]?, password: String?, files: [String],
                                command: String) throws(IdentityImportError) -> CMSSigningIdentity {
        do {
            let isPEM = certificate.count >= 10 && String(decoding: certificate.prefix(64 << 10), as: UTF8.self).contains("-----BEGIN")
            if key == nil, !isPEM {
                return try CMSSigningIdentity(pkcs12: certificate, password: password ?? "")
            }
            return try CMSSigningIdentity(certificates: certificate, privateKey: key, passphrase: password)
        } catch {
            throw IdentityImportError(files: files, command: command, reason: error)
        }
    }
}

/// Why an identity could not be imported: libcrypto's reason, the files and the flag that fixes it.
public struct IdentityImportError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The files given.
    public var files: [String]
    /// The command they were given to (`signing-identity`, `code-identity`).
    public var command: String
    /// What libcrypto said.
    public var reason: CMSSigningError

    /// A sentence naming the files, the cause and the fix.
    public var description: String {
        switch reason {
        case .libraryUnavailable:
            return "\(reason) to import an identity"
        case .unreadableKey, .unreadablePKCS12:
            return "\(files.joined(separator: " ")): \(reason) (`betactl \(command) import` reads the password from the first line of the file given with --password-file)"
        default:
            return "\(files.joined(separator: " ")): \(reason)"
        }
    }

    /// A missing libcrypto is the machine's failure; anything else is the files'.
    public var category: ErrorCategory {
        if case .libraryUnavailable = reason { return .failed }
        return .invalidInput
    }
}
