import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport

/// The shared cache of throwaway RSA keys (TestSupport's TestKeys) that the tests and the Python
/// test servers use instead of generating a key per certificate.
@Suite(.enabled(if: OpenSSLTool.available))
struct TestKeysTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func inode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
    }

    @Test func twoRolesGiveDifferentKeysAndOneRoleTheSameKeyOfTheSizeAskedFor() throws {
        let first = try TestKeys.rsa("test-keys-first", bits: 1024)
        let second = try TestKeys.rsa("test-keys-second", bits: 1024)
        #expect(first != second)
        #expect(try Self.bytes(first) != Self.bytes(second))
        #expect(try TestKeys.rsa("test-keys-first", bits: 1024) == first)
        #expect(try TestKeys.rsa("test-keys-first", bits: 2048) != first, "another size is another key")
        let text = try runToolNow("openssl", ["pkey", "-in", first, "-noout", "-text"])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.text.contains("Private-Key: (1024 bit"), "\(text.text.prefix(80))")
        #expect(try Self.bytes(first).starts(with: Data("-----BEGIN PRIVATE KEY-----".utf8)), "PKCS#8, as openssl req -keyout writes")
    }

    @Test func oneRoleAskedForByManyTasksAtOnceIsOneKeyAndNoTemporaryFileIsLeft() async throws {
        let folder = try TemporaryDirectory("test-keys")
        // Each task reads the key as soon as it has its path: a key replaced after some task had
        // read it would show as two different keys.
        let answers = try await withThrowingTaskGroup(of: (path: String, key: Data).self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await blocking {
                        let path = try TestKeys.rsa("race", bits: 1024, in: folder.path)
                        return (path, try Self.bytes(path))
                    }
                }
            }
            return try await group.reduce(into: [(path: String, key: Data)]()) { $0.append($1) }
        }
        #expect(Set(answers.map(\.path)) == [folder.child("rsa1024-race.pem")])
        #expect(Set(answers.map(\.key)).count == 1, "one key for all")
        #expect(try Self.bytes(folder.child("rsa1024-race.pem")) == answers.first?.key)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rsa1024-race.pem"])
        #expect(answers.first?.key.starts(with: Data("-----BEGIN PRIVATE KEY-----".utf8)) == true)
    }

    @Test func aPublishedKeyIsNeverReplaced() async throws {
        let folder = try TemporaryDirectory("test-keys")
        // A key another process published first, which this one must use as it is.
        let planted = try TestKeys.rsa("planted-source", bits: 1024, in: folder.path)
        let path = folder.child("rsa1024-kept.pem")
        #expect(link(planted, path) == 0)
        let before = try Self.bytes(path), inode = try Self.inode(path)
        let paths = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask { try await blocking { try TestKeys.rsa("kept", bits: 1024, in: folder.path) } }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(paths) == [path])
        #expect(try Self.bytes(path) == before)
        #expect(try Self.inode(path) == inode, "the same file, not a copy put in its place")
    }

    @Test func aRoleThatIsNotAPlainNameIsRefusedSayingWhatARoleIs() {
        for role in ["", "../escape", ".hidden", "a/b", "spa ce"] {
            let error = #expect(throws: TestKeyError.self) { try TestKeys.rsa(role, bits: 1024, in: "/nonexistent") }
            #expect(error?.description.contains("a role is a non-empty name of letters, digits") == true, "\(role)")
        }
        let size = #expect(throws: TestKeyError.self) { try TestKeys.rsa("fine", bits: 1000, in: "/nonexistent") }
        #expect(size?.description.contains("ask for 1024, 2048, 3072 or 4096") == true)
    }
}
