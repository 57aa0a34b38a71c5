#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import CryptoCMS
import Multipart

/// What the dashboard and the API both do: receive a release or symbol upload, read the roster and
/// the device list, export devices, read a crash report's original bytes, load the code-signing
/// identity, and word a failure for a page. Holds only what those need, so that neither side
/// reaches into the other.
struct WebActions: Sendable {
    let home: Home
    let pool: BlockingPool
    let snapshots: SnapshotStore
    let crashes: CrashIntake
    let configuration: WebConfiguration

    /// The current time.
    var now: Date { configuration.now() }

    /// Report `id`'s SHA-256 and original bytes (read on the blocking pool).
    func rawCrashReport(_ id: Int64) async throws -> (sha256: String, bytes: [UInt8]) {
        let store = crashes.store
        return try await pool.run { (try store.report(id: id).sha256, try store.rawBytes(of: id)) }
    }

    /// The stored code-signing identity, ready to sign; refused with the fix when there is none.
    static func codeSigner(home: Home) throws -> LibcryptoCodeSigner {
        guard let stored = try CodeIdentityStore(home: home).current() else {
            throw APIProblem(.refused, "no code-signing identity is stored; import the Apple Distribution .p12 with `betactl code-identity import DIST.p12 --password-file F` first")
        }
        do {
            let identity = try CMSSigningIdentity(certificates: Array(stored.certificatePEM.utf8), privateKey: Array(stored.privateKeyPEM.utf8))
            return try LibcryptoCodeSigner(identity: identity)
        } catch {
            throw APIProblem(.refused, "the stored code-signing identity cannot be used: \(error)")
        }
    }

    /// What a failed action shows: the problem's sentence and its reasons, and the status to answer.
    static func failure(_ error: any Error) throws -> (status: HTTPStatus, message: String, items: [String]) {
        guard let problem = APIProblem.from(error), problem.kind.status.code < 500 else { throw error }
        return (problem.kind.status, problem.detail, problem.errors.map(\.detail))
    }

    /// "qa, design" → ["qa", "design"].
    static func groupList(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
    }

    /// The largest profile accepted; real ones are tens of kilobytes.
    static let profileLimit: Int64 = 8 << 20
    /// A form with a profile: the part `profile` and a few small fields (the dashboard's CSRF token).
    static let profileFormLimits = MultipartLimits(maxParts: 8, bytesPerPart: 64 * 1024, bytesPerField: ["profile": profileLimit],
                                                   totalBytes: profileLimit + (1 << 20))

    /// `text` without the spaces and tabs around it.
    static func trimmedText(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
