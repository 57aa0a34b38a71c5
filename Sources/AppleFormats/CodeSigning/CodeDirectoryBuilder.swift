/// Builds a CodeDirectory (version 0x20400) over the first `codeLimit` bytes of a slice.
public struct CodeDirectoryBuilder: Sendable {
    /// The signing identifier (the bundle identifier, or the file name for a dylib).
    public var identifier: String
    /// The team identifier.
    public var teamIdentifier: String?
    /// The digest of every slot.
    public var hashType: CodeDirectory.HashType
    /// The `CS_*` flags (0 for a certificate signature; never 0x2 ad hoc here).
    public var flags: UInt32 = 0
    /// The executable segment: `__TEXT`'s file offset and size, and flags (main binary for executables).
    public var execSegBase: UInt64 = 0, execSegLimit: UInt64 = 0, execSegFlags: UInt64 = 0
    /// The bytes sealed by each special slot (Info.plist, requirements blob, CodeResources, entitlement blobs).
    public var specialSlots: [CodeDirectory.SpecialSlot: [UInt8]] = [:]
    static let pageSizeLog2: UInt8 = 12
    static let headerSize = 88

    /// A builder for `identifier` with `hashType` digests.
    public init(identifier: String, teamIdentifier: String?, hashType: CodeDirectory.HashType) {
        self.identifier = identifier
        self.teamIdentifier = teamIdentifier
        self.hashType = hashType
    }

    /// The CodeDirectory blob over `code` (the slice up to where its signature starts).
    public func build(code: UnsafeRawBufferPointer) -> [UInt8] {
        let hashSize = hashType.size
        let pageSize = 1 << Int(Self.pageSizeLog2)
        let codeSlots = (code.count + pageSize - 1) / pageSize
        let specialCount = specialSlots.keys.map(\.rawValue).max() ?? 0
        let ident = Array(identifier.utf8) + [0]
        let team: [UInt8] = teamIdentifier.map { Array($0.utf8) + [0] } ?? []
        let identOffset = Self.headerSize
        let teamOffset = team.isEmpty ? 0 : identOffset + ident.count
        let hashOffset = identOffset + ident.count + team.count + specialCount * hashSize
        let length = hashOffset + codeSlots * hashSize

        var out: [UInt8] = []
        out.reserveCapacity(length)
        func u32(_ value: UInt32) { CodeRequirement.word(value, &out) }
        func u64(_ value: UInt64) { u32(UInt32(value >> 32)); u32(UInt32(value & 0xffff_ffff)) }
        u32(CodeSignature.codeDirectoryMagic); u32(UInt32(length)); u32(0x20400); u32(flags)
        u32(UInt32(hashOffset)); u32(UInt32(identOffset)); u32(UInt32(specialCount)); u32(UInt32(codeSlots))
        u32(code.count > Int(UInt32.max) ? 0 : UInt32(code.count))
        out += [UInt8(hashSize), hashType.rawValue, 0, Self.pageSizeLog2]
        u32(0)  // spare2
        u32(0)  // scatterOffset
        u32(UInt32(teamOffset))
        u32(0)  // spare3
        u64(code.count > Int(UInt32.max) ? UInt64(code.count) : 0)
        u64(execSegBase); u64(execSegLimit); u64(execSegFlags)
        out += ident + team
        if specialCount > 0 {
            for number in stride(from: specialCount, through: 1, by: -1) {
                if let slot = CodeDirectory.SpecialSlot(rawValue: number), let bytes = specialSlots[slot] {
                    out += bytes.withUnsafeBytes { digest($0) }
                } else {
                    out += [UInt8](repeating: 0, count: hashSize)
                }
            }
        }
        for page in 0 ..< codeSlots {
            let start = page * pageSize
            out += digest(UnsafeRawBufferPointer(rebasing: code[start ..< min(start + pageSize, code.count)]))
        }
        return out
    }

    func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        switch hashType {
        case .sha1: SHA1.hash(bytes).bytes
        case .sha256: SHA256.hash(bytes).bytes
        case .sha256Truncated: Array(SHA256.hash(bytes).bytes.prefix(20))
        case .sha384: []  // never chosen by the signer
        }
    }
}
