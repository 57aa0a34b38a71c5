extension CodeDirectory {
    /// Parses a CodeDirectory blob (its 8-byte header included).
    public init(bytes: [UInt8]) throws(CodeSignatureError) {
        do {
            try self.init(reading: bytes)
        } catch let error as CodeSignatureError {
            throw error
        } catch {
            throw CodeSignatureError.malformed("CodeDirectory: \(error)")
        }
    }

    private init(reading bytes: [UInt8]) throws {
        let directory = try bytes.withUnsafeBytes { raw throws -> Parsed in try Parsed(raw) }
        self.bytes = bytes
        version = directory.version
        flags = directory.flags
        identifier = directory.identifier
        teamIdentifier = directory.team
        specialSlotCount = directory.specialSlots
        codeSlotCount = directory.codeSlots
        codeLimit = directory.codeLimit
        hashType = directory.hashType
        hashSize = directory.hashSize
        pageSizeLog2 = directory.pageSizeLog2
        platform = directory.platform
        hashOffset = directory.hashOffset
        execSegBase = directory.execSeg?.base
        execSegLimit = directory.execSeg?.limit
        execSegFlags = directory.execSeg?.flags
    }

    /// The fields read in one pass over a bounds-checked reader.
    private struct Parsed {
        var version: UInt32 = 0, flags: UInt32 = 0, identifier = "", team: String?
        var specialSlots = 0, codeSlots = 0, codeLimit: UInt64 = 0
        var hashType = HashType.sha1, hashSize = 0, pageSizeLog2: UInt8 = 0, platform: UInt8 = 0, hashOffset = 0
        var execSeg: (base: UInt64, limit: UInt64, flags: UInt64)?

        init(_ raw: UnsafeRawBufferPointer) throws {
            var r = ByteReader(raw)
            let magic = try r.u32be()
            guard magic == CodeSignature.codeDirectoryMagic else {
                throw CodeSignatureError.malformed("the CodeDirectory starts with 0x\(String(magic, radix: 16)), not 0xfade0c02")
            }
            let length = Int(try r.u32be())
            guard length == raw.count else {
                throw CodeSignatureError.malformed("the CodeDirectory claims \(length) bytes but its slot holds \(raw.count)")
            }
            version = try r.u32be()
            guard version >= 0x20001, version >> 16 == 2 else {
                throw CodeSignatureError.malformed("CodeDirectory version 0x\(String(version, radix: 16)) is not one iOS reads")
            }
            flags = try r.u32be()
            hashOffset = Int(try r.u32be())
            let identOffset = Int(try r.u32be())
            let special = try r.u32be(), code = try r.u32be()
            guard special <= CodeDirectory.maxSpecialSlots, code <= CodeDirectory.maxCodeSlots else {
                throw CodeSignatureError.malformed("the CodeDirectory claims \(special) special and \(code) code slots")
            }
            specialSlots = Int(special); codeSlots = Int(code)
            codeLimit = UInt64(try r.u32be())
            hashSize = Int(try r.u8())
            let typeByte = try r.u8()
            guard let type = HashType(rawValue: typeByte) else {
                throw CodeSignatureError.malformed("the CodeDirectory uses hash type \(typeByte), which iOS does not know")
            }
            hashType = type
            guard hashSize == type.size else {
                throw CodeSignatureError.malformed("the CodeDirectory's \(type) hashes claim \(hashSize) bytes instead of \(type.size)")
            }
            platform = try r.u8()
            pageSizeLog2 = try r.u8()
            guard pageSizeLog2 == 0 || (pageSizeLog2 >= 9 && pageSizeLog2 <= 16) else {
                throw CodeSignatureError.malformed("the CodeDirectory's page size 2^\(pageSizeLog2) is not one iOS uses")
            }
            _ = try r.u32be()  // spare2
            if version >= 0x20100 { _ = try r.u32be() }  // scatterOffset
            var teamOffset = 0
            if version >= 0x20200 { teamOffset = Int(try r.u32be()) }
            if version >= 0x20300 {
                _ = try r.u32be()  // spare3
                let limit64 = try r.u64be()
                if limit64 != 0 { codeLimit = limit64 }
            }
            if version >= 0x20400 {
                execSeg = (try r.u64be(), try r.u64be(), try r.u64be())
            }
            let headerEnd = r.offset
            guard hashOffset >= headerEnd, hashOffset >= specialSlots * hashSize,
                  hashOffset <= raw.count, codeSlots * hashSize <= raw.count - hashOffset else {
                throw CodeSignatureError.malformed("the CodeDirectory's hash array (offset \(hashOffset), \(specialSlots)+\(codeSlots) slots of \(hashSize) bytes) does not fit in its \(raw.count) bytes")
            }
            guard identOffset >= headerEnd, identOffset < raw.count else {
                throw CodeSignatureError.malformed("the CodeDirectory's identifier offset \(identOffset) lies outside it")
            }
            var name = try ByteReader(raw).slice(at: identOffset, count: raw.count - identOffset)
            identifier = try name.cString()
            if teamOffset > 0 {
                guard teamOffset >= headerEnd, teamOffset < raw.count else {
                    throw CodeSignatureError.malformed("the CodeDirectory's team offset \(teamOffset) lies outside it")
                }
                var team = try ByteReader(raw).slice(at: teamOffset, count: raw.count - teamOffset)
                self.team = try team.cString()
            }
        }
    }

    /// The stored hash of code page `index`.
    public func codeSlotHash(_ index: Int) -> ArraySlice<UInt8> {
        let start = hashOffset + index * hashSize
        return bytes[start ..< start + hashSize]
    }

    /// The stored hash of `slot`, or nil when the directory has too few special slots to hold it.
    public func specialSlotHash(_ slot: SpecialSlot) -> ArraySlice<UInt8>? {
        guard slot.rawValue <= specialSlotCount else { return nil }
        let start = hashOffset - slot.rawValue * hashSize
        return bytes[start ..< start + hashSize]
    }

    /// The digest of `bytes` with this directory's hash type, cut to `hashSize`; nil for SHA-384.
    public func digest(_ data: UnsafeRawBufferPointer) -> [UInt8]? {
        switch hashType {
        case .sha1: SHA1.hash(data).bytes
        case .sha256: SHA256.hash(data).bytes
        case .sha256Truncated: Array(SHA256.hash(data).bytes.prefix(20))
        case .sha384: nil
        }
    }

    /// The digest of `data` (see `digest(_:)` for the raw form).
    public func digest(_ data: [UInt8]) -> [UInt8]? {
        data.withUnsafeBytes { digest($0) }
    }

    /// The CDHash: this directory's digest of itself, cut to 20 bytes as iOS and CodeResources use it.
    public var cdHash: [UInt8]? {
        digest(bytes).map { Array($0.prefix(20)) }
    }
}
