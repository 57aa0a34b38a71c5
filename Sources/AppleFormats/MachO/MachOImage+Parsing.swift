#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MachOImage {
    enum LoadCommand {
        static let segment: UInt32 = 0x1
        static let symtab: UInt32 = 0x2
        static let loadDylib: UInt32 = 0xc
        static let idDylib: UInt32 = 0xd
        static let segment64: UInt32 = 0x19
        static let uuid: UInt32 = 0x1b
        static let codeSignature: UInt32 = 0x1d
        static let lazyLoadDylib: UInt32 = 0x20
        static let encryptionInfo: UInt32 = 0x21
        static let encryptionInfo64: UInt32 = 0x2c
        static let versionMinMacOS: UInt32 = 0x24
        static let versionMinIPhoneOS: UInt32 = 0x25
        static let versionMinTvOS: UInt32 = 0x2f
        static let versionMinWatchOS: UInt32 = 0x30
        static let buildVersion: UInt32 = 0x32
        static let loadWeakDylib: UInt32 = 0x8000_0018
        static let reexportDylib: UInt32 = 0x8000_001f
        static let loadUpwardDylib: UInt32 = 0x8000_0023
    }

    /// Parses a thin image occupying exactly `bytes` (one slice of a fat file, or a whole thin file).
    public init(bytes: UnsafeRawBufferPointer) throws(MachOError) {
        var r = ByteReader(bytes)
        do {
            let magic = try r.u32le()
            guard magic == Self.magic32 || magic == Self.magic64 else {
                throw MachOError.notMachO(reason: "magic number is 0x\(String(magic, radix: 16))")
            }
            is64Bit = magic == Self.magic64
            architecture = MachOArchitecture(cpuType: Int32(bitPattern: try r.u32le()), cpuSubtype: Int32(bitPattern: try r.u32le()))
            fileType = try r.u32le()
            let commandCount = try r.u32le()
            let commandsSize = try r.u32le()
            flags = try r.u32le()
            if is64Bit { _ = try r.u32le() }
            guard commandCount <= Self.maxLoadCommands else {
                throw MachOError.malformed("header claims \(commandCount) load commands")
            }
            guard Int(commandsSize) <= r.remaining else {
                throw MachOError.malformed("load commands need \(commandsSize) bytes but only \(r.remaining) follow the header")
            }
            uuid = nil; buildVersion = nil; segments = []; symbolTable = nil
            codeSignature = nil; linkedLibraries = []; installName = nil; encryptionID = nil

            let commandsEnd = r.offset + Int(commandsSize)
            for index in 0 ..< Int(commandCount) {
                let start = r.offset
                let cmd = try r.u32le()
                let size = Int(try r.u32le())
                guard size >= 8, size <= commandsEnd - start else {
                    throw MachOError.malformed("load command \(index) (0x\(String(cmd, radix: 16))) has size \(size), outside the load command area")
                }
                var body = try ByteReader(bytes).slice(at: start, count: size)
                try body.skip(8)
                try parse(command: cmd, index: index, body: &body, commandStart: start)
                r.offset = start + size
            }
        } catch let error as MachOError {
            throw error
        } catch {
            throw MachOError.malformed("\(error)")
        }
    }

    private mutating func parse(command cmd: UInt32, index: Int, body: inout ByteReader, commandStart: Int) throws {
        switch cmd {
        case LoadCommand.segment, LoadCommand.segment64:
            segments.append(try Self.parseSegment(&body, is64: cmd == LoadCommand.segment64))
        case LoadCommand.symtab:
            symbolTable = SymbolTableCommand(symbolOffset: try body.u32le(), symbolCount: try body.u32le(),
                                             stringOffset: try body.u32le(), stringSize: try body.u32le())
        case LoadCommand.uuid:
            let raw = try body.array(16)
            uuid = UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                               raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
        case LoadCommand.codeSignature:
            codeSignature = LinkEditData(offset: try body.u32le(), size: try body.u32le())
        case LoadCommand.encryptionInfo, LoadCommand.encryptionInfo64:
            _ = try body.u32le(); _ = try body.u32le()  // cryptoff, cryptsize
            encryptionID = try body.u32le()
        case LoadCommand.buildVersion:
            let platform = try body.u32le()
            let minimum = try body.u32le(), sdk = try body.u32le()
            buildVersion = BuildVersion(platform: platform, minimumOS: Self.versionString(minimum), sdk: Self.versionString(sdk))
        case LoadCommand.versionMinMacOS, LoadCommand.versionMinIPhoneOS, LoadCommand.versionMinTvOS, LoadCommand.versionMinWatchOS:
            // LC_BUILD_VERSION wins when both are present.
            guard buildVersion == nil else { return }
            let platform: UInt32 = switch cmd {
            case LoadCommand.versionMinMacOS: 1
            case LoadCommand.versionMinIPhoneOS: 2
            case LoadCommand.versionMinTvOS: 3
            default: 4
            }
            let minimum = try body.u32le(), sdk = try body.u32le()
            buildVersion = BuildVersion(platform: platform, minimumOS: Self.versionString(minimum), sdk: Self.versionString(sdk))
        case LoadCommand.loadDylib, LoadCommand.loadWeakDylib, LoadCommand.reexportDylib,
             LoadCommand.lazyLoadDylib, LoadCommand.loadUpwardDylib, LoadCommand.idDylib:
            let nameOffset = Int(try body.u32le())
            guard nameOffset >= 8, nameOffset < body.bytes.count else {
                throw MachOError.malformed("load command \(index) names a dylib at offset \(nameOffset), outside the command")
            }
            body.offset = nameOffset
            let name = try body.cString()
            if cmd == LoadCommand.idDylib { installName = name } else { linkedLibraries.append(name) }
        default:
            break
        }
    }

    private static func parseSegment(_ r: inout ByteReader, is64: Bool) throws -> Segment {
        let name = try r.fixedString(16)
        let vmAddress, vmSize, fileOffset, fileSize: UInt64
        if is64 {
            vmAddress = try r.u64le(); vmSize = try r.u64le(); fileOffset = try r.u64le(); fileSize = try r.u64le()
        } else {
            vmAddress = UInt64(try r.u32le()); vmSize = UInt64(try r.u32le())
            fileOffset = UInt64(try r.u32le()); fileSize = UInt64(try r.u32le())
        }
        _ = try r.u32le(); _ = try r.u32le()  // maxprot, initprot
        let sectionCount = try r.u32le()
        _ = try r.u32le()  // flags
        let sectionSize = is64 ? 80 : 68
        guard Int(sectionCount) <= r.remaining / sectionSize else {
            throw MachOError.malformed("segment \(name) claims \(sectionCount) section\(sectionCount == 1 ? "" : "s"), more than fit in its load command")
        }
        var sections: [Section] = []
        sections.reserveCapacity(Int(sectionCount))
        for _ in 0 ..< sectionCount {
            let sectionName = try r.fixedString(16)
            let segmentName = try r.fixedString(16)
            let address, size: UInt64
            if is64 { address = try r.u64le(); size = try r.u64le() } else { address = UInt64(try r.u32le()); size = UInt64(try r.u32le()) }
            let offset = try r.u32le()
            try r.skip(is64 ? 28 : 24)  // align, reloff, nreloc, flags, reserved…
            sections.append(Section(name: sectionName, segmentName: segmentName, address: address, size: size, fileOffset: offset))
        }
        return Segment(name: name, vmAddress: vmAddress, vmSize: vmSize, fileOffset: fileOffset, fileSize: fileSize, sections: sections)
    }

    /// The bytes of `section` within `image` (the slice this image was parsed from), or nil when
    /// the section is zero-fill or points outside the slice.
    public static func contents(of section: Section, in image: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let start = Int(section.fileOffset)
        guard start > 0, section.size <= UInt64(Int.max), start <= image.count, Int(section.size) <= image.count - start else { return nil }
        return UnsafeRawBufferPointer(rebasing: image[start ..< start + Int(section.size)])
    }

    /// The code signature blob within `image`, or nil if unsigned or out of range.
    public func codeSignatureBytes(in image: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let signature = codeSignature else { return nil }
        let start = Int(signature.offset), size = Int(signature.size)
        guard start <= image.count, size <= image.count - start else { return nil }
        return UnsafeRawBufferPointer(rebasing: image[start ..< start + size])
    }
}
