@testable import BetaKit
import AppleFormats
import CryptoCMS
import Foundation
import TestSupport

/// A build edited after signing (a hostile Info.plist, say), signed again by betactl's own bundle
/// signer with a self-made identity and profile (`ResigningFixtures.resignedCopy`): `release`
/// verifies signatures, so an edited build must be re-signed before it can be published.
enum ResignedIPA {
    /// Signs the app in `ipa` again and writes the result as `name` in `directory`; returns its path.
    static func make(from ipa: String, named name: String, in directory: TemporaryDirectory) throws -> String {
        try ResigningFixtures.resignedCopy(of: ipa, named: name, in: directory) { app, name, credentials in
            let profile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: credentials.child("new.mobileprovision"))))
            let identity = try CMSSigningIdentity(certificates: [UInt8](Data(contentsOf: URL(fileURLWithPath: credentials.child("cert.pem")))),
                                                  privateKey: [UInt8](Data(contentsOf: URL(fileURLWithPath: credentials.child("key.pem")))))
            try BundleSigner(cms: try LibcryptoCodeSigner(identity: identity), profile: try ProvisioningProfile(bytes: profile), profileBytes: profile)
                .sign(appAt: app, name: name)
        }
    }
}
