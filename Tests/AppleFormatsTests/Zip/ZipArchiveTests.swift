import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct ZipArchiveTests {
    static func open(_ name: String, limits: ZipLimits = ZipLimits()) throws -> ZipArchive {
        try ZipArchive(source: ZipMemorySource([UInt8](LocalFixtures.data("formats/zip/\(name)"))), limits: limits)
    }

    static func refusal(_ name: String, limits: ZipLimits = ZipLimits()) -> ZipError? {
        do {
            let archive = try open(name, limits: limits)
            for entry in archive.entries where !entry.isDirectory { try archive.extract(entry) { _ in } }
            return nil
        } catch let error as ZipError {
            return error
        } catch {
            return .readFailed("\(error)")
        }
    }

    @Test func readsStoredDeflatedDirectoriesSymlinksAndComment() throws {
        let archive = try Self.open("mixed.zip")
        #expect(archive.entries.map(\.name) == ["dir/", "dir/stored.txt", "dir/deflated.txt", "exec", "link"])
        let stored = try #require(archive.entry(named: "dir/stored.txt"))
        #expect(stored.method == 0)
        #expect(try archive.contents(of: stored) == Array("stored bytes\n".utf8))
        let deflated = try #require(archive.entry(named: "dir/deflated.txt"))
        #expect(deflated.method == 8)
        #expect(deflated.compressedSize < deflated.uncompressedSize)
        #expect(try archive.contents(of: deflated) == Array(String(repeating: "deflated ", count: 5000).utf8))
        #expect(archive.entry(named: "dir/")?.isDirectory == true)
        #expect(archive.entry(named: "exec")?.isExecutable == true)
        #expect(archive.entry(named: "link")?.isSymbolicLink == true)
        #expect(archive.entry(named: "dir/stored.txt")?.isSymbolicLink == false)
    }

    @Test func readsZip64RecordsAndExtraFields() throws {
        let archive = try Self.open("zip64.zip")
        #expect(archive.entries.map(\.name) == ["a.txt", "b.bin"])
        #expect(try archive.contents(of: try #require(archive.entry(named: "a.txt"))) == Array("zip64 stored\n".utf8))
        let binary = try archive.contents(of: try #require(archive.entry(named: "b.bin")))
        #expect(binary.count == 256 * 64)
        #expect(binary[257] == 1)
    }

    @Test func streamsLargeEntriesInBoundedChunks() throws {
        let archive = try Self.open("bomb_ratio.zip", limits: ZipLimits(maxCompressionRatio: 10_000))
        let entry = try #require(archive.entries.first)
        var chunks = 0, total = 0, largest = 0
        try archive.extract(entry) { chunk in
            chunks += 1
            total += chunk.count
            largest = max(largest, chunk.count)
        }
        #expect(total == 8 << 20)
        #expect(largest <= ZipArchive.chunkSize)
        #expect(chunks >= (8 << 20) / ZipArchive.chunkSize)
    }

    @Test func refusesCompressionRatioBombs() {
        let error = Self.refusal("bomb_ratio.zip")
        #expect(error?.description.hasPrefix("the zip archive is refused as a possible zip bomb: \"zeros.bin\" would expand") == true)
        #expect(error?.description.contains("limit 200:1") == true)
    }

    @Test func refusesOverlappingEntryBombs() {
        let error = Self.refusal("bomb_overlap.zip", limits: ZipLimits(maxCompressionRatio: 100_000))
        #expect(error?.description.contains("overlaps") == true)
        #expect(error?.description.contains("overlapping entries are a zip bomb technique") == true)
    }

    @Test func stopsEntriesThatExpandBeyondTheirDeclaredSize() {
        let error = Self.refusal("lying_size.zip")
        #expect(error == .limitExceeded("\"small.txt\" expands beyond its declared 1000 bytes"))
    }

    @Test func refusesTooManyEntriesAndTooMuchTotalSize() {
        let many = Self.refusal("mixed.zip", limits: ZipLimits(maxEntries: 3))
        #expect(many?.description == "the zip archive is refused as a possible zip bomb: it has 5 entries, more than the limit of 3")
        let big = Self.refusal("mixed.zip", limits: ZipLimits(maxTotalUncompressedSize: 1000))
        #expect(big?.description.contains("would extract to more than 1000 bytes (limit reached at \"dir/deflated.txt\")") == true)
    }

    @Test func refusesTraversalAndAbsoluteNames() {
        #expect(Self.refusal("traversal.zip")?.description ==
            "the zip archive contains the entry \"Payload/../../evil.sh\", which contains a \"..\" component; refusing an archive that could write outside its folder")
        #expect(Self.refusal("absolute.zip")?.description.contains("\"/etc/cron.d/evil\", which is an absolute path") == true)
        #expect(throws: ZipError.self) { try ZipEntryName.validate("C:\\Windows\\x") }
        #expect(throws: ZipError.self) { try ZipEntryName.validate("a\\..\\b") }
        #expect(throws: Never.self) { try ZipEntryName.validate("Payload/a..b/..c") }
    }

    @Test func refusesBadCRCAndUnsupportedMethods() {
        let crc = Self.refusal("bad_crc.zip")
        #expect(crc?.description.hasPrefix("\"data.txt\" in the zip archive is corrupt: CRC-32 is 0x") == true)
        #expect(crc?.description.contains("but the archive records 0xdeadbeef") == true)
        let method = Self.refusal("bzip2_method.zip")
        #expect(method?.description.hasPrefix("cannot read \"data.bz2\" in the zip archive: compression method 12 (bzip2) is not supported") == true)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func refusesFilesThatAreNotZips() throws {
        let bytes = [UInt8](try SharedFixtures.data("ipas/not-an-ipa.ipa"))
        let error = #expect(throws: ZipError.self) { try ZipArchive(source: ZipMemorySource(bytes)) }
        #expect(error?.description == "not a zip archive: the file is only 15 bytes long; an .ipa must be the zip file Xcode exports (check that the file was copied completely)")
        let text = #expect(throws: ZipError.self) { try ZipArchive(source: ZipMemorySource(Array(repeating: 0x41, count: 100))) }
        #expect(text?.description.hasPrefix("not a zip archive: no end-of-central-directory record was found") == true)
    }

    @Test func truncatedArchivesAreRefusedAndBitFlipsNeverTrap() throws {
        let bytes = [UInt8](try LocalFixtures.data("formats/app/Beta.ipa"))
        for length in stride(from: 0, to: bytes.count, by: 97) {
            let cut = Array(bytes.prefix(length))
            #expect(throws: ZipError.self) { try ZipArchive(source: ZipMemorySource(cut)) }
        }
        var generator = SystemRandomNumberGenerator()
        var detected = 0
        for _ in 0 ..< 300 {
            var flipped = bytes
            let index = Int.random(in: 0 ..< flipped.count, using: &generator)
            flipped[index] ^= UInt8(1) << UInt8.random(in: 0 ... 7, using: &generator)
            do {
                let archive = try ZipArchive(source: ZipMemorySource(flipped))
                for entry in archive.entries where !entry.isDirectory { try archive.extract(entry) { _ in } }
            } catch {
                detected += 1
            }
        }
        // Almost every flip lands in compressed data or headers and must be caught (CRC, sizes, names).
        #expect(detected > 200)
    }

    @Test func refusesEncryptedEntries() throws {
        var bytes = [UInt8](try LocalFixtures.data("formats/zip/mixed.zip"))
        // Set the "encrypted" flag of the second central directory entry (dir/stored.txt).
        var seen = 0
        for index in 0 ..< bytes.count - 4 where bytes[index ..< index + 4].elementsEqual([0x50, 0x4b, 0x01, 0x02]) {
            seen += 1
            if seen == 2 { bytes[index + 8] |= 1; break }
        }
        let archive = try ZipArchive(source: ZipMemorySource(bytes))
        let entry = try #require(archive.entry(named: "dir/stored.txt"))
        let error = #expect(throws: ZipError.self) { try archive.contents(of: entry) }
        #expect(error?.description == "cannot read \"dir/stored.txt\" in the zip archive: the entry is encrypted; zip it again without encryption using stored or deflated entries")
    }
}
