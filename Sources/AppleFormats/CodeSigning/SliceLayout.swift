/// Where a thin image keeps what signing touches: the `LC_CODE_SIGNATURE` command and its blob,
/// `__LINKEDIT` (which must end where the signature ends) and `__TEXT` (the executable segment).
struct SliceLayout {
    /// Offset of the LC_CODE_SIGNATURE command in the image.
    var commandOffset: Int
    /// Offset of the `__LINKEDIT` segment command.
    var linkEditCommandOffset: Int
    var is64Bit: Bool
    /// Where the signature starts (and the hashed code ends).
    var signatureOffset: UInt32
    /// The space the signature may use.
    var signatureSize: UInt32
    var textOffset: UInt64
    var textSize: UInt64
    var isExecutable: Bool
    /// Whether the minimum OS predates iOS 11, which reads only SHA-1 CodeDirectories.
    var needsSHA1: Bool
    var encryptionID: UInt32

    init(_ image: [UInt8], path: String) throws(CodeSigningError) {
        let parsed: MachOImage
        do { parsed = try image.withUnsafeBytes { raw throws(MachOError) in try MachOImage(bytes: raw) } } catch {
            throw CodeSigningError.unsupported(path: path, reason: "\(error)")
        }
        is64Bit = parsed.is64Bit
        isExecutable = parsed.fileType == 2
        encryptionID = parsed.encryptionID ?? 0
        let minimum = parsed.buildVersion?.minimumOS.split(separator: ".").first.flatMap { Int($0) } ?? 0
        needsSHA1 = parsed.buildVersion?.platform == 2 && minimum < 11 || parsed.buildVersion == nil
        guard let text = parsed.segment(named: "__TEXT") else {
            throw CodeSigningError.unsupported(path: path, reason: "it has no __TEXT segment")
        }
        textOffset = text.fileOffset
        textSize = text.fileSize
        guard let signature = parsed.codeSignature else {
            throw CodeSigningError.unsupported(path: path, reason: "it has no LC_CODE_SIGNATURE load command (link it with Xcode's linker, which reserves one)")
        }
        signatureOffset = signature.offset
        signatureSize = signature.size
        var command: Int?, linkEdit: Int?
        var offset = is64Bit ? 32 : 28
        let count = Self.u32(image, 16)
        for _ in 0 ..< count {
            guard offset + 8 <= image.count else { break }
            let cmd = Self.u32(image, offset), size = Int(Self.u32(image, offset + 4))
            if cmd == 0x1d { command = offset }
            if cmd == 0x19 || cmd == 0x1, offset + 24 <= image.count,
               image[offset + 8 ..< offset + 24].prefix(while: { $0 != 0 }).elementsEqual("__LINKEDIT".utf8) { linkEdit = offset }
            guard size >= 8 else { break }
            offset += size
        }
        guard let command, let linkEdit else {
            throw CodeSigningError.unsupported(path: path, reason: "it has no __LINKEDIT segment for the signature")
        }
        commandOffset = command
        linkEditCommandOffset = linkEdit
        guard UInt64(signatureOffset) + UInt64(signatureSize) <= UInt64(image.count), Int(signatureOffset) <= image.count else {
            throw CodeSigningError.unsupported(path: path, reason: "its LC_CODE_SIGNATURE points past the end of the file")
        }
    }

    /// The image with room for `size` bytes of signature: the command's size, `__LINKEDIT`'s file
    /// and memory sizes, and the file's length all follow.
    func resizeSignature(_ image: [UInt8], to size: UInt32, path: String) throws(CodeSigningError) -> [UInt8] {
        var bytes = Array(image[0 ..< Int(signatureOffset)]) + [UInt8](repeating: 0, count: Int(size))
        Self.put32(&bytes, commandOffset + 12, size)
        let end = UInt64(signatureOffset) + UInt64(size)
        if is64Bit {
            let fileOffset = Self.u64(bytes, linkEditCommandOffset + 40)
            guard end >= fileOffset else { throw CodeSigningError.unsupported(path: path, reason: "__LINKEDIT starts after the signature") }
            Self.put64(&bytes, linkEditCommandOffset + 48, end - fileOffset)
            Self.put64(&bytes, linkEditCommandOffset + 32, (end - fileOffset + 0x3fff) / 0x4000 * 0x4000)
        } else {
            let fileOffset = UInt64(Self.u32(bytes, linkEditCommandOffset + 32))
            guard end >= fileOffset else { throw CodeSigningError.unsupported(path: path, reason: "__LINKEDIT starts after the signature") }
            Self.put32(&bytes, linkEditCommandOffset + 36, UInt32(end - fileOffset))
            Self.put32(&bytes, linkEditCommandOffset + 28, UInt32((end - fileOffset + 0x3fff) / 0x4000 * 0x4000))
        }
        return bytes
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }

    static func put32(_ bytes: inout [UInt8], _ at: Int, _ value: UInt32) {
        for index in 0 ..< 4 { bytes[at + index] = UInt8(value >> (8 * UInt32(index)) & 0xff) }
    }

    static func put64(_ bytes: inout [UInt8], _ at: Int, _ value: UInt64) {
        put32(&bytes, at, UInt32(value & 0xffff_ffff))
        put32(&bytes, at + 4, UInt32(value >> 32))
    }
}
