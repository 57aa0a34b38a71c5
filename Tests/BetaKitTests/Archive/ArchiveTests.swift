import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

@Suite struct ArchiveTests {
    static func home(_ dir: TemporaryDirectory) throws -> Home {
        try Home.initialise(at: dir.child("home"), change: HomeSettingsChange(), now: FormatsFixtures.now).home
    }

    @Test func locatesArchivedDWARFFilesByUUIDAndArchitecture() throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try Self.home(dir))
        _ = try archive.addSymbols(paths: [LocalFixtures.url("formats/app/Beta.app.dSYM.zip").path], now: FormatsFixtures.now)
        let expected = try JSONDecoder().decode([String: [String: String]].self, from: LocalFixtures.data("formats/app/expected.json"))
        let arm64e = try #require(expected["Beta"]?["arm64e"].flatMap(UUID.init(uuidString:)))
        let found = try #require(try archive.symbolLocation(uuid: arm64e, architecture: .arm64e))
        #expect(found.architecture == .arm64e)
        // The stored file is the fat DWARF file whose arm64e slice has that UUID.
        let slices = try MappedFile(path: found.path).withBytes { MachOSlices.read($0).slices }
        #expect(slices.contains { $0.uuid == arm64e && $0.architecture == .arm64e })
        // The architecture is only a hint.
        #expect(try archive.symbolLocation(uuid: arm64e, architecture: .x86_64)?.architecture == .arm64e)
        #expect(try archive.symbolLocation(uuid: UUID(), architecture: nil) == nil)
    }

    @Test func cleansPendingBlobsOfDeadProcessesButNotOfLiveOnes() throws {
        let dir = try TemporaryDirectory()
        let home = try Self.home(dir)
        let archive = Archive(home: home)
        let blobs = BlobStore(root: home.blobsPath)
        let staging = try archive.makeStagingDirectory()
        let dead = try blobs.store(Array("orphan".utf8), staging: staging)
        let live = try blobs.store(Array("in flight".utf8), staging: staging)
        // A pid that cannot exist stands for a killed publisher; our own pid for a running one.
        try home.store.write { db in
            try db.query("INSERT INTO blobs (sha256, size, kind, created_at, pending_pid) VALUES (?, 6, 'test', '2025-01-01T00:00:00Z', 2147483646)", [.text(dead.hex)])
            try db.query("INSERT INTO blobs (sha256, size, kind, created_at, pending_pid) VALUES (?, 9, 'test', '2025-01-01T00:00:00Z', ?)", [.text(live.hex), .integer(Int64(getpid()))])
        }
        try FileManager.default.createDirectory(atPath: home.temporaryPath + "/stage-2147483646-1", withIntermediateDirectories: true)
        #expect(try archive.cleanOrphans() == 1)
        #expect(!FileManager.default.fileExists(atPath: blobs.path(for: dead)))
        #expect(FileManager.default.fileExists(atPath: blobs.path(for: live)))
        #expect(!FileManager.default.fileExists(atPath: home.temporaryPath + "/stage-2147483646-1"))
        #expect(FileManager.default.fileExists(atPath: staging))
    }

    @Test func refusedReleasesLeaveNothingBehind() throws {
        let dir = try TemporaryDirectory()
        let home = try Self.home(dir)
        let archive = Archive(home: home)
        let error = #expect(throws: ArchiveError.self) {
            try archive.release(ReleaseRequest(path: LocalFixtures.url("formats/app/Beta.ipa").path), devices: [], now: FormatsFixtures.now)
        }
        #expect(error?.description.hasPrefix("the build cannot be released (1 problem):\n  - no dSYM matches 3 executable slices") == true)
        #expect(try archive.releases().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.blobsPath).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.temporaryPath).isEmpty)
    }

    @Test func resolvesProfilesByUUIDNameOrUniquePrefixAndExplainsAmbiguity() throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try Self.home(dir))
        for name in ["beta_adhoc", "beta_development"] {
            _ = try archive.importProfile(bytes: [UInt8](LocalFixtures.data("formats/profiles/\(name).mobileprovision")), now: FormatsFixtures.now)
        }
        #expect(try archive.storedProfile(matching: "beta development").uuid == "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000003")
        #expect(try archive.profile(matching: "0B6E7A1C-2F00-4C5E-9D1A-5E7A00000001").name == "Beta Ad Hoc")
        let ambiguous = #expect(throws: ArchiveError.self) { try archive.storedProfile(matching: "0b6e7a1c") }
        #expect(ambiguous?.description == "\"0b6e7a1c\" matches 2 profiles (0b6e7a1c-2f00-4c5e-9d1a-5e7a00000001, 0b6e7a1c-2f00-4c5e-9d1a-5e7a00000003); pass the UUID instead")
        // A blob deleted behind betactl's back is reported, not read as garbage.
        let stored = try archive.storedProfile(matching: "Beta Ad Hoc")
        try FileManager.default.removeItem(atPath: archive.blobPath(stored.blob))
        let missing = #expect(throws: ArchiveError.self) { try archive.profile(matching: "Beta Ad Hoc") }
        #expect(missing?.description == "the archive file \(stored.blob.hex) is missing from blobs/; restore the home from a backup")
    }
}
