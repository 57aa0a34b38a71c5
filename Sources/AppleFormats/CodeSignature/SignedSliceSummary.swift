/// What one slice's code signature holds, for `inspect` and `check-signature --json`.
public struct SignedSliceSummary: Sendable, Equatable {
    /// One CodeDirectory of the slice.
    public struct Directory: Sendable, Equatable {
        /// The SuperBlob slot (0, or 0x1000 and up for alternates).
        public var slot: UInt32
        /// The format version, such as 0x20400.
        public var version: UInt32
        /// The digest.
        public var hashType: CodeDirectory.HashType
        /// The CDHash as hex (20 bytes).
        public var cdHash: String
        /// How many code pages it hashes.
        public var pageCount: Int
        /// The page size in bytes.
        public var pageSize: UInt64
        /// The `CS_*` flags.
        public var flags: UInt32
        /// The executable segment flags (version 0x20400 and later).
        public var execSegFlags: UInt64?
        /// The special slots holding a non-zero hash.
        public var boundSlots: [CodeDirectory.SpecialSlot]
    }

    /// The slice's architecture.
    public var architecture: String
    /// The signing identifier.
    public var identifier: String?
    /// The team identifier.
    public var teamIdentifier: String?
    /// Every CodeDirectory, primary first.
    public var directories: [Directory]
    /// Whether the signature holds XML entitlements.
    public var hasEntitlements: Bool
    /// Whether the signature holds DER entitlements (required by iOS 15 and later).
    public var hasDEREntitlements: Bool
    /// Whether the signature holds a requirements blob.
    public var hasRequirements: Bool
    /// The signing certificate's subject, when a CMS signature was checked.
    public var signer: Certificate?
    /// The `cryptid` when the slice is encrypted.
    public var encryptionID: UInt32?
}
