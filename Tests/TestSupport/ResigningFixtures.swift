import Foundation

/// A self-made distribution identity and an ad hoc profile listing its certificate, for re-signing
/// tests: the fixture app's profile with a wildcard application identifier, edited by `edit` (Python
/// statements on `profile`), signed by the new certificate with `openssl cms`.
public enum ResigningFixtures {
    /// The new certificate's subject.
    public static let subject = "/UID=ABCDE12345/CN=iPhone Distribution: Resigner (ABCDE12345)/OU=ABCDE12345/O=Resigner/C=US"
    /// The new profile's name and UUID.
    public static let profileName = "Resigned Ad Hoc", profileUUID = "0b6e7a1c-2f00-4c5e-9d1a-5e7a000000ff"

    /// Writes `cert.pem`, `key.pem` and `new.mobileprovision` into `directory`; the key is the
    /// cached test key of `role` (see `TestKeys`): a test that needs two different developers asks
    /// for two roles.
    public static func make(in directory: TemporaryDirectory, edit: String = "", role: String = "resigner") throws {
        try TestKeys.rsa(role, copiedTo: directory.child("key.pem"))
        let made = try runToolNow("openssl", ["req", "-x509", "-key", directory.child("key.pem"), "-days", "30", "-subj", subject,
                                              "-out", directory.child("cert.pem")])
        guard made.status == 0 else { throw ToolFailure(message: made.error) }
        let script = """
        import plistlib, subprocess, sys
        work = sys.argv[1]
        plist = subprocess.run(["openssl", "cms", "-verify", "-noverify", "-inform", "DER", "-in", sys.argv[2]],
                               check=True, capture_output=True).stdout
        profile = plistlib.loads(plist)
        der = subprocess.run(["openssl", "x509", "-in", work + "/cert.pem", "-outform", "DER"], check=True, capture_output=True).stdout
        profile["DeveloperCertificates"] = [der]
        profile["Name"] = "\(profileName)"
        profile["UUID"] = "\(profileUUID)"
        profile["Entitlements"]["application-identifier"] = "ABCDE12345.*"
        \(edit)
        open(work + "/profile.plist", "wb").write(plistlib.dumps(profile))
        subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", work + "/profile.plist",
                        "-signer", work + "/cert.pem", "-inkey", work + "/key.pem", "-out", work + "/new.mobileprovision"], check=True)
        """
        let profiled = try runToolNow("python3", ["-c", script, directory.path, LocalFixtures.url("formats/profiles/beta_adhoc.mobileprovision").path])
        guard profiled.status == 0 else { throw ToolFailure(message: profiled.error) }
    }

    /// A copy of `ipa` (a build edited after signing, say) signed again as its developer would
    /// re-export it: unzipped into a scratch folder that also gets `cert.pem`, `key.pem` and
    /// `new.mobileprovision` (see `make`), the app signed by `sign(appPath, "Payload/<Name>.app",
    /// scratch)`, and zipped as `name` in `directory`. Returns the new ipa's path.
    public static func resignedCopy(of ipa: String, named name: String, in directory: TemporaryDirectory,
                                    sign: (_ app: String, _ name: String, _ credentials: TemporaryDirectory) throws -> Void) throws -> String {
        let work = try TemporaryDirectory("resign")
        let unzip = try runToolNow("unzip", ["-q", ipa, "-d", work.child("ipa")])
        guard unzip.status == 0 else { throw ToolFailure(message: unzip.error) }
        guard let app = try FileManager.default.contentsOfDirectory(atPath: work.child("ipa/Payload")).first(where: { $0.hasSuffix(".app") }) else {
            throw ToolFailure(message: "\(ipa) holds no Payload/<Name>.app")
        }
        try make(in: work)
        try sign(work.child("ipa/Payload/\(app)"), "Payload/\(app)", work)
        let output = directory.child(name)
        let zip = try runToolNow("zip", ["-qr", output, "Payload"], directory: work.child("ipa"))
        guard zip.status == 0 else { throw ToolFailure(message: zip.error) }
        return output
    }

    /// A tool that failed while making the fixtures.
    public struct ToolFailure: Error, CustomStringConvertible {
        /// What it printed.
        public var message: String
        /// The message.
        public var description: String { message }
        /// A failure that printed `message`.
        public init(message: String) { self.message = message }
    }
}
