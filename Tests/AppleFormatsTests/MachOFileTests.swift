import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct MachOFileTests {
    @Test(.enabled(if: SharedFixtures.available))
    func readsThinArm64ExecutableHeaderAndLoadCommands() throws {
        let data = try SharedFixtures.data("macho/macho_fastlane_very-capable-app.bin")
        try data.withUnsafeBytes { raw throws in
            let file = try MachOFile(bytes: raw)
            #expect(!file.isFat)
            #expect(file.slices.map(\.architecture) == [.arm64])
            let image = try MachOImage(bytes: MachOFile.bytes(of: file.slices[0], in: raw))
            #expect(image.uuid?.uuidString == "1E48E3AC-4C63-309D-8DF6-86FF34C8BE3D")
            #expect(image.buildVersion?.platformName == "iOS")
            #expect(image.buildVersion?.minimumOS == "11.2")
            #expect(image.codeSignature == .init(offset: 54160, size: 12752))
            #expect(image.segment(named: "__TEXT")?.vmAddress == 0x1_0000_0000)
            #expect(image.section(named: "__text", segment: "__TEXT") != nil)
            #expect(image.linkedLibraries.contains { $0.hasSuffix("libSystem.B.dylib") })
            let signature = try #require(image.codeSignatureBytes(in: raw))
            #expect(Array(signature.prefix(4)) == [0xfa, 0xde, 0x0c, 0xc0])
        }
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsFatWrapperAroundTwoSlices() throws {
        let arm64 = try SharedFixtures.data("crash/crashprobe/arm64-CrashLibiOS.framework.dSYM/Contents/Resources/DWARF/CrashLibiOS")
        let armv7 = try SharedFixtures.data("crash/crashprobe/armv7-CrashLibiOS.framework.dSYM/Contents/Resources/DWARF/CrashLibiOS")
        var fat = Data()
        func be32(_ v: UInt32) { withUnsafeBytes(of: v.bigEndian) { fat.append(contentsOf: $0) } }
        let first = 4096, second = (first + arm64.count + 4095) / 4096 * 4096
        be32(0xcafe_babe); be32(2)
        be32(0x0100_000c); be32(0); be32(UInt32(first)); be32(UInt32(arm64.count)); be32(12)
        be32(12); be32(9); be32(UInt32(second)); be32(UInt32(armv7.count)); be32(12)
        fat.append(Data(count: first - fat.count)); fat.append(arm64)
        fat.append(Data(count: second - fat.count)); fat.append(armv7)
        try fat.withUnsafeBytes { raw throws in
            let file = try MachOFile(bytes: raw)
            #expect(file.isFat)
            #expect(file.slices.map(\.architecture.name) == ["arm64", "armv7"])
            let v7 = try MachOImage(bytes: MachOFile.bytes(of: try #require(file.slice(for: .armv7)), in: raw))
            #expect(!v7.is64Bit)
            #expect(v7.fileType == 10)
            #expect(v7.uuid != nil)
            #expect(v7.section(named: "__debug_info", segment: "__DWARF") != nil)
        }
    }

    @Test func rejectsNonMachOAndHostileHeaders() throws {
        let text = Data("hello, this is not a binary".utf8)
        text.withUnsafeBytes { raw in
            _ = #expect(throws: MachOError.self) { try MachOFile(bytes: raw) }
        }
        // A fat header whose slice runs past the end of the file.
        let fat: [UInt8] = [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 1, 1, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x10, 0, 0, 0, 0, 12]
        fat.withUnsafeBytes { raw in
            _ = #expect(throws: MachOError.self) { try MachOFile(bytes: raw) }
        }
        // A thin header claiming a load command larger than the file.
        var thin: [UInt8] = [0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        thin += [0x19, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        thin.withUnsafeBytes { raw in
            _ = #expect(throws: MachOError.self) { try MachOImage(bytes: raw) }
        }
    }

    /// What reading a (damaged) file as betactl does gave: its images, or the typed error.
    enum Outcome {
        case parsed([MachOImage])
        case rejected(MachOError)
    }

    /// Reads the header, then every slice, as ingest does. A result must be usable (every slice
    /// inside the file); an error must be a sentence that names a fix.
    static func read(_ raw: UnsafeRawBufferPointer, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        do throws(MachOError) {
            let file = try MachOFile(bytes: raw)
            #expect(!file.slices.isEmpty, sourceLocation: sourceLocation)
            var images: [MachOImage] = []
            for slice in file.slices {
                #expect(slice.offset >= 0 && slice.size >= 0 && slice.offset + slice.size <= raw.count,
                        "slice \(slice) lies outside the \(raw.count)-byte file", sourceLocation: sourceLocation)
                images.append(try MachOImage(bytes: MachOFile.bytes(of: slice, in: raw)))
            }
            return .parsed(images)
        } catch {
            #expect(error.description.contains("; "), "not a sentence with a fix: \(error)", sourceLocation: sourceLocation)
            return .rejected(error)
        }
    }

    @Test(.enabled(if: SharedFixtures.available))
    func everyTruncationOfARealBinaryIsRefusedWithATypedErrorOrReadsWhole() throws {
        let data = try SharedFixtures.data("macho/macho_fastlane_very-capable-app.bin")
        // mach_header_64 is 32 bytes; sizeofcmds (offset 20) says where the load commands end.
        let commandsEnd = 32 + (Int(data[20]) | Int(data[21]) << 8 | Int(data[22]) << 16 | Int(data[23]) << 24)
        #expect(commandsEnd == 3432)
        let expectedUUID = "1E48E3AC-4C63-309D-8DF6-86FF34C8BE3D"
        var refused = 0, read = 0
        // Load commands sit in the first few KiB; truncating there exercises every bounds check.
        for length in stride(from: 0, through: 4096, by: 7) {
            let outcome = data.prefix(length).withUnsafeBytes { Self.read($0) }
            switch outcome {
            case .rejected:
                refused += 1
            case .parsed(let images):
                read += 1
                // Only a file whose load commands are all there may read, and then it reads right.
                #expect(length >= commandsEnd, "a \(length)-byte prefix read, though the load commands need \(commandsEnd)")
                #expect(images.map { $0.uuid?.uuidString } == [expectedUUID])
            }
        }
        #expect(refused == (commandsEnd + 6) / 7, "every prefix shorter than the load commands must be refused")
        #expect(read > 0)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func everyByteFlipInTheHeadersIsRefusedWithATypedErrorOrReadsConsistently() throws {
        let data = try SharedFixtures.data("macho/macho_fastlane_very-capable-app.bin")
        var flipped = [UInt8](data.prefix(8192))
        var refused: [Int] = []
        for i in stride(from: 0, to: 4096, by: 3) {
            flipped[i] ^= 0xff
            let outcome = flipped.withUnsafeBytes { Self.read($0) }
            if case .rejected = outcome { refused.append(i) }
            if case .parsed(let images) = outcome {
                #expect(images.count == 1)
                #expect(images.first?.segments.isEmpty == false, "flip at \(i) read an image without segments")
            }
            flipped[i] ^= 0xff
        }
        // The magic number (bytes 0-3) and the command count and size (16-23) cannot survive a flip.
        for position in [0, 3, 18, 21] { #expect(refused.contains(position), "a flip at byte \(position) was accepted") }
        #expect(refused.count < 4096 / 3, "every flip was refused: the sweep never reached a readable image")
    }
}
