/// An embedded code signature: the SuperBlob (0xfade0cc0) that LC_CODE_SIGNATURE points to.
///
/// betactl reads it for the entitlements the executable was signed with, which
/// iOS compares with the provisioning profile at install time.
public struct CodeSignature: Sendable {
    /// One entry of the SuperBlob's index.
    public struct Blob: Sendable, Equatable {
        /// The slot type (0 CodeDirectory, 2 requirements, 5 XML entitlements, 7 DER entitlements, 0x10000 CMS).
        public var slot: UInt32
        /// The blob's own magic.
        public var magic: UInt32
        /// Offset of the blob within the SuperBlob.
        public var offset: Int
        /// The blob's length including its 8-byte header.
        public var length: Int
    }

    /// SuperBlob magic.
    public static let superBlobMagic: UInt32 = 0xfade_0cc0
    /// CodeDirectory magic.
    public static let codeDirectoryMagic: UInt32 = 0xfade_0c02
    /// XML entitlements blob magic.
    public static let xmlEntitlementsMagic: UInt32 = 0xfade_7171
    /// DER entitlements blob magic.
    public static let derEntitlementsMagic: UInt32 = 0xfade_7172
    // A real signature has fewer than ten blobs; this bounds hostile counts.
    static let maxBlobs: UInt32 = 64

    /// The index entries, in order.
    public var blobs: [Blob]
    /// The raw plist of the XML entitlements blob, if present.
    public var xmlEntitlements: [UInt8]?
    /// The raw DER of the DER entitlements blob, if present.
    public var derEntitlements: [UInt8]?
    /// The signing identifier from the first CodeDirectory (usually the bundle id).
    public var identifier: String?
    /// The team identifier from the first CodeDirectory (version 0x20200 and later).
    public var teamIdentifier: String?
    /// The whole SuperBlob as stored, so each blob's exact bytes can be hashed and compared.
    public var superBlob: [UInt8]
    /// The requirements blob magic.
    public static let requirementsMagic: UInt32 = 0xfade_0c01
    /// The CMS signature wrapper blob magic.
    public static let blobWrapperMagic: UInt32 = 0xfade_0b01

    /// Parses a SuperBlob.
    public init(bytes: UnsafeRawBufferPointer) throws(CodeSignatureError) {
        var reader = ByteReader(bytes)
        do {
            let magic = try reader.u32be()
            guard magic == Self.superBlobMagic else { throw CodeSignatureError.notSuperBlob(magic: magic) }
            let length = Int(try reader.u32be())
            guard length >= 12, length <= bytes.count else {
                throw CodeSignatureError.malformed("SuperBlob claims \(length) bytes but \(bytes.count) are available")
            }
            let count = try reader.u32be()
            guard count <= Self.maxBlobs, Int(count) * 8 + 12 <= length else {
                throw CodeSignatureError.malformed("SuperBlob claims \(count) blob\(count == 1 ? "" : "s"), more than fit in its \(length) bytes")
            }
            var blobs: [Blob] = []
            for _ in 0 ..< count {
                let slot = try reader.u32be()
                let offset = Int(try reader.u32be())
                var inner = try ByteReader(bytes).slice(at: offset, count: 8)
                let blobMagic = try inner.u32be()
                let blobLength = Int(try inner.u32be())
                guard blobLength >= 8, offset <= length, blobLength <= length - offset else {
                    throw CodeSignatureError.malformed("blob in slot 0x\(String(slot, radix: 16)) at offset \(offset) claims \(blobLength) bytes, past the end of the \(length)-byte SuperBlob")
                }
                blobs.append(Blob(slot: slot, magic: blobMagic, offset: offset, length: blobLength))
            }
            self.blobs = blobs
            superBlob = Array(UnsafeRawBufferPointer(rebasing: bytes[0 ..< length]))
            xmlEntitlements = nil
            derEntitlements = nil
            identifier = nil
            teamIdentifier = nil
            for blob in blobs {
                let payload = Array(try ByteReader(bytes).slice(at: blob.offset + 8, count: blob.length - 8).bytes)
                switch blob.magic {
                case Self.xmlEntitlementsMagic where xmlEntitlements == nil: xmlEntitlements = payload
                case Self.derEntitlementsMagic where derEntitlements == nil: derEntitlements = payload
                case Self.codeDirectoryMagic where identifier == nil && blob.slot == 0:
                    try readCodeDirectory(try ByteReader(bytes).slice(at: blob.offset, count: blob.length))
                default: break
                }
            }
        } catch let error as CodeSignatureError {
            throw error
        } catch {
            throw CodeSignatureError.malformed("\(error)")
        }
    }

    private mutating func readCodeDirectory(_ directory: ByteReader) throws {
        var r = directory
        try r.skip(8)
        let version = try r.u32be()
        _ = try r.u32be()  // flags
        _ = try r.u32be()  // hashOffset
        let identOffset = Int(try r.u32be())
        try r.skip(4 + 4 + 4 + 4)  // nSpecialSlots, nCodeSlots, codeLimit, hash size/type/platform/pageSize
        _ = try r.u32be()  // spare2
        if identOffset > 0 {
            var name = try directory.slice(at: identOffset, count: directory.bytes.count - identOffset)
            identifier = try name.cString()
        }
        if version >= 0x20100 { _ = try r.u32be() }  // scatterOffset
        if version >= 0x20200 {
            let teamOffset = Int(try r.u32be())
            if teamOffset > 0 {
                var team = try directory.slice(at: teamOffset, count: directory.bytes.count - teamOffset)
                teamIdentifier = try team.cString()
            }
        }
    }

    /// The exact bytes of the first blob in `slot` (its 8-byte header included), or nil.
    public func blob(slot: UInt32) -> [UInt8]? {
        guard let entry = blobs.first(where: { $0.slot == slot }) else { return nil }
        return Array(superBlob[entry.offset ..< entry.offset + entry.length])
    }

    /// The XML entitlements as typed values.
    public func parsedXMLEntitlements() throws(CodeSignatureError) -> [String: PlistValue]? {
        guard let xmlEntitlements else { return nil }
        do {
            let value = try PlistValue(parsing: xmlEntitlements)
            guard let dictionary = value.dictionary else {
                throw CodeSignatureError.unreadableEntitlements(slot: "XML", reason: "the plist is \(value.kindDescription), not a dictionary")
            }
            return dictionary
        } catch let error as CodeSignatureError {
            throw error
        } catch {
            throw CodeSignatureError.unreadableEntitlements(slot: "XML", reason: "\(error)")
        }
    }

    /// The DER entitlements (Apple's `[APPLICATION 16]` form or a bare SET) as typed values.
    public func parsedDEREntitlements() throws(CodeSignatureError) -> [String: PlistValue]? {
        guard let derEntitlements else { return nil }
        let value: PlistValue
        do {
            value = try PlistValue(derBytes: derEntitlements)
        } catch {
            throw CodeSignatureError.unreadableEntitlements(slot: "DER", reason: error.description)
        }
        guard let dictionary = value.dictionary else {
            throw CodeSignatureError.unreadableEntitlements(slot: "DER", reason: "the value is \(value.kindDescription), not a dictionary")
        }
        return dictionary
    }

    /// The entitlements iOS enforces: DER when present (iOS 15 and later read only that), else XML.
    public func entitlements() throws(CodeSignatureError) -> [String: PlistValue]? {
        if let der = try parsedDEREntitlements() { return der }
        return try parsedXMLEntitlements()
    }
}
