import Foundation

/// A self-made distribution identity and an ad hoc profile listing its certificate, for re-signing
/// tests: the fixture app's profile with a wildcard application identifier, edited by `edit` (Python
/// statements on `profile`), signed by the new certificate with `openssl cms`.
public enum ResigningFixtures {
    /// The new certificate's subject.
    public static let subject = "/UID=ABCDE12345/CN=iPhone Distribution: Resigner (ABCDE12345)/OU=ABCDE12345/O=Resigner/C=US"
    /// The new profile's name and UUID.
    public static let profileName = "Resigned Ad Hoc", profileUUID = "0b6e7a1c-2f00-4c5e-9d1a-5e7a000000ff"

    /// Writes `cert.pem`, `key.pem` and `new.mobileprovision` into `directory`.
    public static func make(in directory: TemporaryDirectory, edit: String = "") throws {
        let made = try runToolNow("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", subject,
                                              "-keyout", directory.child("key.pem"), "-out", directory.child("cert.pem")])
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

    /// A tool that failed while making the fixtures.
    public struct ToolFailure: Error, CustomStringConvertible {
        /// What it printed.
        public var message: String
        /// The message.
        public var description: String { message }
    }
}
