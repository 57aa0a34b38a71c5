import Foundation

/// The `openssl` command line as an independent oracle and fixture maker: signing identities, the
/// CMS replies devices post during enrolment, and verification of what betactl signs.
public enum OpenSSLTool {
    /// Whether `openssl` is installed (`.ci/install-deps --test`).
    public static var available: Bool {
        ["/usr/bin/openssl", "/usr/local/bin/openssl"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A certificate authority and a signing certificate it issued, as files.
    public struct Identity: Sendable {
        /// The CA certificate (PEM): what a device would trust.
        public var caCertificate: String
        /// The signing certificate (PEM).
        public var certificate: String
        /// The signing key (PEM, unencrypted).
        public var key: String
        /// The signing certificate's common name.
        public var commonName: String
    }

    /// Runs openssl with `arguments`, failing with its message.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil) async throws -> Data {
        let result = try await runTool("openssl", arguments, input: input)
        guard result.status == 0 else { throw OpenSSLError(arguments: arguments, message: result.error) }
        return result.output
    }

    /// Copies the cached test key of `role` (see `TestKeys`) to `path`, off the cooperative pool.
    static func cachedKey(_ role: String, bits: Int = 2048, copiedTo path: String) async throws {
        try await blocking { _ = try TestKeys.rsa(role, bits: bits, copiedTo: path) }
    }

    /// Makes a CA and a certificate it issued (RSA 2048, valid `days` from now) in `directory`,
    /// with file names starting `name`; the keys are the cached test keys of roles `name-ca` and
    /// `name`, so two identities with different names have different keys.
    public static func makeIdentity(in directory: TemporaryDirectory, name: String = "signer",
                                    commonName: String = "Beta Enrollment Signing", days: Int = 365) async throws -> Identity {
        let ca = directory.child("\(name)-ca.pem"), caKey = directory.child("\(name)-ca.key")
        let key = directory.child("\(name).key"), request = directory.child("\(name).csr"), certificate = directory.child("\(name).pem")
        let extensions = try directory.write("\(name).ext", Array("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n".utf8))
        try await cachedKey("\(name)-ca", copiedTo: caKey)
        try await cachedKey(name, copiedTo: key)
        try await run(["req", "-x509", "-key", caKey, "-out", ca, "-days", "\(days + 30)", "-subj", "/CN=\(name) Test Root CA/O=betactl tests"])
        try await run(["req", "-new", "-key", key, "-out", request, "-subj", "/CN=\(commonName)/O=betactl tests"])
        try await run(["x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", certificate,
                       "-days", "\(days)", "-extfile", extensions])
        return Identity(caCertificate: ca, certificate: certificate, key: key, commonName: commonName)
    }

    /// A device's self-signed certificate and key for signing enrolment replies (real devices sign
    /// with a certificate from Apple's iPhone Device CA; betactl does not judge it). The key is the
    /// cached RSA 1024 test key of role `device`.
    public static func makeDeviceIdentity(in directory: TemporaryDirectory) async throws -> (certificate: String, key: String) {
        let certificate = directory.child("device.pem"), key = directory.child("device.key")
        try await cachedKey("device", bits: 1024, copiedTo: key)
        try await run(["req", "-x509", "-key", key, "-out", certificate, "-days", "3650",
                       "-subj", "/CN=00008120-001A2B3C4D5E6F70/O=Apple Inc./OU=iPhone"])
        return (certificate, key)
    }

    /// The attribute plist a device posts, shaped like a real one (keys sorted, tabs, Apple's DOCTYPE).
    /// A nil value leaves its key out.
    public static func deviceReplyPlist(udid: String?, product: String? = "iPhone15,2", version: String? = "21A329",
                                        serial: String? = "F2LXK0ABCD12", deviceName: String? = "Ann's iPhone",
                                        imei: String? = "35 123456 789012 3", challenge: String?) -> String {
        let fields: [(String, String?)] = [("CHALLENGE", challenge), ("DEVICE_NAME", deviceName), ("IMEI", imei),
                                           ("PRODUCT", product), ("SERIAL", serial), ("UDID", udid), ("VERSION", version)]
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        var plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>

            """
        for (key, value) in fields {
            guard let value else { continue }
            plist += "\t<key>\(key)</key>\n\t<string>\(escaped(value))</string>\n"
        }
        return plist + "</dict>\n</plist>\n"
    }

    /// Signs `content` as a device does: `openssl cms -sign -nodetach -outform DER`; with `ber`, in
    /// BER with indefinite lengths (`-stream`), as some devices send it.
    public static func signDER(_ content: String, certificate: String, key: String, ber: Bool = false,
                               in directory: TemporaryDirectory) async throws -> [UInt8] {
        let input = try directory.write("content-\(UUID().uuidString.prefix(8)).plist", Array(content.utf8))
        let output = try await run(["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", input,
                                    "-signer", certificate, "-inkey", key] + (ber ? ["-stream"] : []))
        return Array(output)
    }

    /// Verifies CMS `bytes` against `caFile` and returns the signed content.
    public static func verify(_ bytes: [UInt8], caFile: String, in directory: TemporaryDirectory) async throws -> Data {
        let input = try directory.write("signed-\(UUID().uuidString.prefix(8)).der", bytes)
        return try await run(["cms", "-verify", "-inform", "DER", "-in", input, "-CAfile", caFile, "-purpose", "any"])
    }

    /// Whether `openssl cms -verify` accepts `bytes` against `caFile`, as the oracle for betactl's
    /// own verdict: any purpose, and without validity dates when `checkTime` is false (Apple's device
    /// CAs expired long ago).
    public static func verifies(_ bytes: [UInt8], caFile: String, checkTime: Bool = false, in directory: TemporaryDirectory) async throws -> Bool {
        let input = try directory.write("signed-\(UUID().uuidString.prefix(8)).der", bytes)
        let result = try await runTool("openssl", ["cms", "-verify", "-inform", "DER", "-in", input, "-CAfile", caFile, "-purpose", "any",
                                                   "-out", "/dev/null"] + (checkTime ? [] : ["-no_check_time"]))
        return result.status == 0
    }

    /// A chain whose names copy Apple's (Apple Root CA, Apple iPhone Certification Authority, Apple
    /// iPhone Device CA) made with keys of its own (cached test keys, a role per level), and a
    /// device certificate under it: a forgery that only a pinned chain tells apart. Returns the
    /// device certificate, its key and the two intermediates (PEM files).
    public static func makeLookalikeAppleChain(in directory: TemporaryDirectory) async throws
        -> (certificate: String, key: String, intermediates: String, root: String) {
        let names = [("root", "/C=US/O=Apple Inc./OU=Apple Certification Authority/CN=Apple Root CA"),
                     ("iphone-ca", "/C=US/O=Apple Inc./OU=Apple Certification Authority/CN=Apple iPhone Certification Authority"),
                     ("device-ca", "/C=US/O=Apple Inc./OU=Apple iPhone/CN=Apple iPhone Device CA")]
        let caExtensions = try directory.write("lookalike-ca.ext", Array("basicConstraints=critical,CA:TRUE\nkeyUsage=keyCertSign,cRLSign\n".utf8))
        let leafExtensions = try directory.write("lookalike-leaf.ext", Array("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n".utf8))
        var issuer: (certificate: String, key: String)?
        for (name, subject) in names {
            let key = directory.child("lookalike-\(name).key"), certificate = directory.child("lookalike-\(name).pem")
            try await cachedKey("lookalike-\(name)", copiedTo: key)
            if let issuer {
                let request = directory.child("lookalike-\(name).csr")
                try await run(["req", "-new", "-key", key, "-out", request, "-subj", subject])
                try await run(["x509", "-req", "-in", request, "-CA", issuer.certificate, "-CAkey", issuer.key, "-CAcreateserial",
                               "-out", certificate, "-days", "3650", "-extfile", caExtensions])
            } else {
                try await run(["req", "-x509", "-key", key, "-out", certificate, "-days", "3650",
                               "-subj", subject, "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=keyCertSign,cRLSign"])
            }
            issuer = (certificate, key)
        }
        guard let deviceCA = issuer else { throw OpenSSLError(arguments: [], message: "no chain made") }
        let key = directory.child("lookalike-device.key"), request = directory.child("lookalike-device.csr")
        let certificate = directory.child("lookalike-device.pem")
        try await cachedKey("lookalike-device", copiedTo: key)
        try await run(["req", "-new", "-key", key, "-out", request, "-subj", "/CN=0B5938EB-A130-466F-BFA5-BFA950500D03"])
        try await run(["x509", "-req", "-in", request, "-CA", deviceCA.certificate, "-CAkey", deviceCA.key, "-CAcreateserial",
                       "-out", certificate, "-days", "3650", "-extfile", leafExtensions])
        let intermediates = try directory.write("lookalike-intermediates.pem",
                                                Array(try Data(contentsOf: URL(fileURLWithPath: directory.child("lookalike-device-ca.pem"))))
                                                    + Array(try Data(contentsOf: URL(fileURLWithPath: directory.child("lookalike-iphone-ca.pem")))))
        return (certificate, key, intermediates, directory.child("lookalike-root.pem"))
    }

    /// Signs `content` like `signDER`, carrying the certificates in `certfile` (PEM) besides the signer's.
    public static func signDER(_ content: [UInt8], certificate: String, key: String, certfile: String?,
                               in directory: TemporaryDirectory) async throws -> [UInt8] {
        let input = try directory.write("content-\(UUID().uuidString.prefix(8)).plist", content)
        return Array(try await run(["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", input, "-signer", certificate,
                                    "-inkey", key] + (certfile.map { ["-certfile", $0] } ?? [])))
    }

    /// Packs the identity (and its CA) into a `.p12` with `password`; `legacy` uses the RC2/3DES
    /// encryption of older exports.
    public static func pkcs12(_ identity: Identity, password: String, legacy: Bool = false, in directory: TemporaryDirectory) async throws -> String {
        let output = directory.child("identity-\(legacy ? "legacy" : "modern").p12")
        var arguments = ["pkcs12", "-export", "-inkey", identity.key, "-in", identity.certificate, "-certfile", identity.caCertificate,
                         "-out", output, "-passout", "pass:\(password)"]
        if legacy { arguments.append("-legacy") }
        try await run(arguments)
        return output
    }
}

/// openssl failed.
public struct OpenSSLError: Error, CustomStringConvertible {
    /// What it was asked to do.
    public var arguments: [String]
    /// What it said.
    public var message: String

    /// The command and the message.
    public var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(message)" }
}
