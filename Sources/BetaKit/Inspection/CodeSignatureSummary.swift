import AppleFormats

/// A code-signature verification as JSON, printed by `check-signature --json` and in `inspect`.
/// Field names are part of betactl's interface: add fields, never rename them.
public struct CodeSignatureSummary: Encodable, Sendable, Equatable {
    /// One refusal.
    public struct ProblemJSON: Encodable, Sendable, Equatable {
        /// The file that breaks the signature.
        public var path: String
        /// The sentence naming the cause and the fix.
        public var message: String
    }

    /// One CodeDirectory.
    public struct DirectoryJSON: Encodable, Sendable, Equatable {
        /// The SuperBlob slot (0 primary, 4096 and up alternates).
        public var slot: UInt32
        /// The version, hex (`0x20400`).
        public var version: String
        /// `SHA-1`, `SHA-256`, …
        public var hashType: String
        /// The CDHash, hex.
        public var cdHash: String
        /// How many code pages it hashes.
        public var pages: Int
        /// The page size in bytes.
        public var pageSize: UInt64
        /// The `CS_*` flags, hex.
        public var flags: String
        /// The executable-segment flags (version 0x20400 and later).
        public var execSegFlags: UInt64?
        /// The special slots it binds: `Info.plist`, `requirements`, …
        public var specialSlots: [String]
    }

    /// One slice.
    public struct SliceJSON: Encodable, Sendable, Equatable {
        /// The architecture.
        public var architecture: String
        /// The signing identifier.
        public var identifier: String?
        /// The team identifier.
        public var team: String?
        /// The signing certificate's subject, when the CMS signature verified.
        public var signer: String?
        /// Its SHA-1 fingerprint, hex.
        public var signerSHA1: String?
        /// Whether XML entitlements are present.
        public var entitlements: Bool
        /// Whether DER entitlements are present.
        public var derEntitlements: Bool
        /// Whether a requirements blob is present.
        public var requirements: Bool
        /// Every CodeDirectory, primary first.
        public var codeDirectories: [DirectoryJSON]
    }

    /// One Mach-O.
    public struct ExecutableJSON: Encodable, Sendable, Equatable {
        /// Its path in the input.
        public var path: String
        /// Its slices.
        public var slices: [SliceJSON]
    }

    /// The input checked (absent inside `inspect`, which names the file already).
    public var path: String?
    /// Whether every signature and seal holds.
    public var valid: Bool
    /// Every refusal.
    public var problems: [ProblemJSON]
    /// Every Mach-O verified, innermost first.
    public var executables: [ExecutableJSON]

    /// The JSON form of `report` for the input at `path`.
    public init(path: String?, report: BundleSignatureReport) {
        self.path = path
        valid = report.isValid
        problems = report.problems.map { ProblemJSON(path: $0.path, message: $0.description) }
        executables = report.executables.map { executable in
            ExecutableJSON(path: executable.path, slices: executable.slices.map(Self.slice))
        }
    }

    static func slice(_ slice: SignedSliceSummary) -> SliceJSON {
        SliceJSON(architecture: slice.architecture, identifier: slice.identifier, team: slice.teamIdentifier,
                  signer: slice.signer.map { "\($0.subject)" }, signerSHA1: slice.signer?.sha1Fingerprint.hex,
                  entitlements: slice.hasEntitlements, derEntitlements: slice.hasDEREntitlements, requirements: slice.hasRequirements,
                  codeDirectories: slice.directories.map { directory in
                      DirectoryJSON(slot: directory.slot, version: "0x" + String(directory.version, radix: 16),
                                    hashType: directory.hashType.description, cdHash: directory.cdHash, pages: directory.pageCount,
                                    pageSize: directory.pageSize, flags: "0x" + String(directory.flags, radix: 16),
                                    execSegFlags: directory.execSegFlags, specialSlots: directory.boundSlots.map(\.description))
                  })
    }
}
