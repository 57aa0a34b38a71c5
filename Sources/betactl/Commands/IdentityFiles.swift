import BetaKit
import CryptoCMS

/// The files `signing-identity import` and `code-identity import` read: CERT.pem KEY.pem, one PEM
/// holding both, or a .p12, with the password (or an encrypted key's passphrase) from --password-file.
enum IdentityFiles {
    /// Runs ACTION (import, show — the default — or remove) of `command` with its FILE arguments;
    /// `importNeeds` says what import takes.
    static func runAction(_ invocation: Invocation, command: String, importNeeds: String,
                          importing importIdentity: (Invocation, [String]) throws -> Void,
                          show: (Invocation) throws -> Void, remove: (Invocation) throws -> Void) throws {
        let action = invocation.arguments.argument("ACTION") ?? "show"
        let files = invocation.arguments.arguments("FILE")
        switch action {
        case "import":
            guard (1 ... 2).contains(files.count) else { throw invocation.usageError("\(command) import needs \(importNeeds)") }
            try importIdentity(invocation, files)
        case "show", "remove":
            guard files.isEmpty else { throw invocation.usageError("\(command) \(action) takes no file; did you mean `\(command) import`?") }
            try action == "show" ? show(invocation) : remove(invocation)
        default:
            throw invocation.usageError("unknown action \"\(action)\"; use import, show or remove")
        }
    }

    /// The identity in `files`, as `command` imports it.
    static func identity(_ invocation: Invocation, files: [String], command: String) throws -> CMSSigningIdentity {
        let first = try FileIO.readFile(files[0], limit: 1 << 20)
        let key = try files.dropFirst().first.map { try FileIO.readFile($0, limit: 1 << 20) }
        let password = try invocation.arguments.value("--password-file").map(readPassword)
        return try IdentityImport.identity(certificate: first, key: key, password: password, files: files, command: command)
    }

    /// The first line of the password file, without its line ending.
    static func readPassword(_ path: String) throws -> String {
        let bytes = try FileIO.readFile(path, limit: 4096)
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        return String(decoding: line, as: UTF8.self)
    }
}
