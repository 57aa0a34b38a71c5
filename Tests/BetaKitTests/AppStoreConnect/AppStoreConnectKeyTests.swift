import Foundation
import Testing
import TestSupport
@testable import BetaKit

@Suite struct AppStoreConnectKeyTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    /// A key made by openssl with `arguments` (genpkey or ecparam), as PEM bytes.
    static func key(_ arguments: [String], _ directory: TemporaryDirectory) throws -> [UInt8] {
        let path = directory.child("key-\(UUID().uuidString.prefix(6)).pem")
        let result = try runToolNow("openssl", arguments + ["-out", path])
        #expect(result.status == 0, "\(result.error)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aP256PKCS8KeyIsAccepted() throws {
        let directory = try TemporaryDirectory()
        let pem = try Self.key(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], directory)
        let key = try AppStoreConnectKey(pem: pem, path: "AuthKey_ABC123DEFG.p8", keyID: " ABC123DEFG ", issuerID: Self.issuer.uppercased())
        #expect(key.keyID == "ABC123DEFG")
        #expect(key.issuerID == Self.issuer)
    }

    @Test func eachKindOfWrongKeyGetsItsOwnSentence() throws {
        let directory = try TemporaryDirectory()
        let rsa = Array(try Data(contentsOf: URL(fileURLWithPath: try TestKeys.rsa("not-p256", bits: 1024))))
        let p384 = try Self.key(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"], directory)
        let sec1 = try Self.key(["ecparam", "-name", "prime256v1", "-genkey", "-noout"], directory)
        let certificate = Array("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8)
        func attempt(_ pem: [UInt8]) -> AppStoreConnectError? {
            do { _ = try AppStoreConnectKey(pem: pem, path: "k.p8", keyID: "ABC123DEFG", issuerID: Self.issuer); return nil } catch { return error }
        }
        #expect(attempt(rsa) == .notP256("k.p8"))
        #expect(attempt(p384) == .notP256("k.p8"))
        #expect(attempt(sec1) == .notPKCS8("k.p8"), "BEGIN EC PRIVATE KEY is not what App Store Connect hands out")
        #expect(attempt(certificate) == .notPKCS8("k.p8"))
        #expect(attempt(Array("-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n".utf8)) == .notPKCS8("k.p8"))
        #expect(AppStoreConnectError.notP256("k.p8").description.contains("not an elliptic-curve P-256 key"))
        #expect(AppStoreConnectError.notPKCS8("k.p8").description.contains("AuthKey_"))
    }

    @Test func keyAndIssuerIDsAreChecked() throws {
        let directory = try TemporaryDirectory()
        let pem = try Self.key(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], directory)
        #expect(throws: AppStoreConnectError.invalidKeyID("abc")) {
            _ = try AppStoreConnectKey(pem: pem, path: "k.p8", keyID: "abc", issuerID: Self.issuer)
        }
        #expect(throws: AppStoreConnectError.invalidIssuerID("not-a-uuid")) {
            _ = try AppStoreConnectKey(pem: pem, path: "k.p8", keyID: "ABC123DEFG", issuerID: "not-a-uuid")
        }
    }

    @Test func theStoredKeyIsReadableByItsOwnerOnlyAndRoundTrips() throws {
        let fixture = try RosterFixture()
        let directory = try TemporaryDirectory()
        let pem = try Self.key(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], directory)
        let key = try AppStoreConnectKey(pem: pem, path: "k.p8", keyID: "ABC123DEFG", issuerID: Self.issuer)
        let connection = try AppStoreConnectConnection(key: key, connectedAt: at("2026-11-27T10:00:00Z"))
        try connection.save(home: fixture.home)
        let path = AppStoreConnectConnection.path(home: fixture.home)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try AppStoreConnectConnection.load(home: fixture.home) == connection)
        #expect(connection.baseURL == "https://api.appstoreconnect.apple.com")
        #expect(try AppStoreConnectConnection.remove(home: fixture.home))
        #expect(try AppStoreConnectConnection.load(home: fixture.home) == nil)
        #expect(try AppStoreConnectConnection.remove(home: fixture.home) == false)
    }

    @Test func onlyHTTPSBaseURLsAreAccepted() throws {
        let directory = try TemporaryDirectory()
        let pem = try Self.key(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], directory)
        let key = try AppStoreConnectKey(pem: pem, path: "k.p8", keyID: "ABC123DEFG", issuerID: Self.issuer)
        #expect(throws: AppStoreConnectError.invalidBaseURL("http://127.0.0.1:1")) {
            _ = try AppStoreConnectConnection(key: key, baseURL: "http://127.0.0.1:1", connectedAt: Date())
        }
        #expect(try AppStoreConnectConnection(key: key, baseURL: "https://127.0.0.1:9/", connectedAt: Date()).baseURL == "https://127.0.0.1:9")
    }
}

@Suite struct AppStoreConnectKeyBackupTests {
    @Test func backupsLeaveTheKeyOutUnlessSecretsAreAskedForAndRestoreBringsThemBack() throws {
        let fixture = try RosterFixture()
        let directory = try TemporaryDirectory()
        let path = directory.child("AuthKey.p8")
        #expect(try runToolNow("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path]).status == 0)
        let key = try AppStoreConnectKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path, keyID: "ABC123DEFG",
                                         issuerID: AppStoreConnectKeyTests.issuer)
        try AppStoreConnectConnection(key: key, connectedAt: Date()).save(home: fixture.home)

        let plain = try HomeBackup.backup(fixture.home, to: directory.child("plain"))
        #expect(plain.secrets == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.child("plain/secrets")))

        let full = try HomeBackup.backup(fixture.home, to: directory.child("full"), includeSecrets: true)
        #expect(full.secrets == 1)
        let copied = directory.child("full/secrets/app-store-connect.json")
        #expect((try FileManager.default.attributesOfItem(atPath: copied)[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        _ = try HomeBackup.restore(from: directory.child("full"), to: directory.child("restored"), force: false, now: Date())
        let restored = try Home.open(at: directory.child("restored"))
        #expect(try AppStoreConnectConnection.load(home: restored)?.key == key)
    }
}
