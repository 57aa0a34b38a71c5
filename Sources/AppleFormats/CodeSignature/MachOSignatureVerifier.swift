/// Verifies the code signature of one Mach-O file (every slice of a fat file) as iOS does at
/// install and launch: every code page against its hash, every special slot against the real
/// file or blob, every CodeDirectory against the CMS signature.
///
/// Pure: the caller hands in the file's bytes and the bundle files the signature binds, and a
/// CMS checker for the cryptography.
public struct MachOSignatureVerifier: Sendable {
    /// The bundle files a main executable's special slots bind.
    public struct SealedFiles: Sendable {
        /// The bundle's Info.plist bytes and path, or nil when it is missing.
        public var infoPlist: (path: String, bytes: [UInt8]?)?
        /// The bundle's `_CodeSignature/CodeResources` bytes and path, or nil when it is missing.
        public var codeResources: (path: String, bytes: [UInt8]?)?

        /// Files for a bundle's executable; `nil` members are not checked (a lone Mach-O).
        public init(infoPlist: (path: String, bytes: [UInt8]?)? = nil, codeResources: (path: String, bytes: [UInt8]?)? = nil) {
            self.infoPlist = infoPlist
            self.codeResources = codeResources
        }
    }

    /// What the verification found.
    public struct Result: Sendable {
        /// Each slice's signature.
        public var slices: [SignedSliceSummary]
        /// Why iOS would refuse the file; empty when the signature holds.
        public var problems: [CodeSignatureProblem]
        /// The CDHashes of every CodeDirectory of every slice (what a parent's CodeResources may seal).
        public var cdHashes: [[UInt8]]
    }

    /// The CMS checker; nil skips the CMS signature (only structure and hashes are checked).
    public var cms: (any CodeSignatureCMSVerifying)?

    /// A verifier using `cms` for the CMS blob.
    public init(cms: (any CodeSignatureCMSVerifying)?) {
        self.cms = cms
    }

    /// Verifies the Mach-O at `path` whose bytes are `bytes`.
    public func verify(_ bytes: UnsafeRawBufferPointer, path: String, sealed: SealedFiles = SealedFiles()) -> Result {
        var result = Result(slices: [], problems: [], cdHashes: [])
        let file: MachOFile
        do { file = try MachOFile(bytes: bytes) } catch {
            result.problems.append(CodeSignatureProblem(path: path, cause: .malformed("\(error)")))
            return result
        }
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            verifySlice(sliceBytes, path: path, sealed: sealed, into: &result)
        }
        // One refusal per cause is enough: a fat file's slices usually fail alike.
        var seen: [CodeSignatureProblem] = []
        for problem in result.problems where !seen.contains(problem) { seen.append(problem) }
        result.problems = seen
        return result
    }

    private func verifySlice(_ bytes: UnsafeRawBufferPointer, path: String, sealed: SealedFiles, into result: inout Result) {
        let image: MachOImage
        do { image = try MachOImage(bytes: bytes) } catch {
            result.problems.append(CodeSignatureProblem(path: path, cause: .malformed("\(error)")))
            return
        }
        let architecture = "\(image.architecture)"
        if let cryptid = image.encryptionID, cryptid != 0 {
            result.problems.append(CodeSignatureProblem(path: path, cause: .encrypted))
            return
        }
        guard let command = image.codeSignature else {
            result.problems.append(CodeSignatureProblem(path: path, cause: .unsigned))
            return
        }
        guard let signatureBytes = image.codeSignatureBytes(in: bytes) else {
            result.problems.append(CodeSignatureProblem(path: path, cause: .malformed("the \(architecture) slice's LC_CODE_SIGNATURE points past the end of the file")))
            return
        }
        let signature: CodeSignature
        var directories: [(slot: UInt32, directory: CodeDirectory)] = []
        do {
            signature = try CodeSignature(bytes: signatureBytes)
            for blob in signature.blobs where blob.slot == 0 || (blob.slot >= 0x1000 && blob.slot < 0x1005) {
                guard let raw = signature.blob(slot: blob.slot) else { continue }
                directories.append((blob.slot, try CodeDirectory(bytes: raw)))
            }
        } catch {
            result.problems.append(CodeSignatureProblem(path: path, cause: .malformed("the \(architecture) slice: \(error.description)")))
            return
        }
        guard let primary = directories.first, primary.slot == 0 else {
            result.problems.append(CodeSignatureProblem(path: path, cause: .malformed("the \(architecture) slice's signature has no CodeDirectory in slot 0")))
            return
        }
        var summary = SignedSliceSummary(architecture: architecture, identifier: primary.directory.identifier,
                                         teamIdentifier: primary.directory.teamIdentifier, directories: [],
                                         hasEntitlements: signature.xmlEntitlements != nil, hasDEREntitlements: signature.derEntitlements != nil,
                                         hasRequirements: signature.blob(slot: 2) != nil, signer: nil, encryptionID: image.encryptionID)
        for (slot, directory) in directories {
            if let cdHash = directory.cdHash { result.cdHashes.append(cdHash) }
            summary.directories.append(Self.describe(directory, slot: slot))
            guard directory.hashType != .sha384 else {
                result.problems.append(CodeSignatureProblem(path: path, cause: .unsupportedHash(directory.hashType.description)))
                continue
            }
            if directory.codeLimit != UInt64(command.offset) {
                result.problems.append(CodeSignatureProblem(path: path, cause: .malformed("the \(architecture) CodeDirectory covers \(directory.codeLimit) bytes but the signature starts at \(command.offset)")))
            }
            checkPages(directory, bytes: bytes, path: path, architecture: architecture, into: &result.problems)
            checkSpecialSlots(directory, signature: signature, path: path, sealed: sealed, into: &result.problems)
        }
        summary.signer = checkCMS(signature, directories: directories, path: path, into: &result.problems)
        result.slices.append(summary)
    }

    static func describe(_ directory: CodeDirectory, slot: UInt32) -> SignedSliceSummary.Directory {
        let bound = CodeDirectory.SpecialSlot.allCases.filter { slot in
            directory.specialSlotHash(slot).map { $0.contains { $0 != 0 } } ?? false
        }
        return SignedSliceSummary.Directory(slot: slot, version: directory.version, hashType: directory.hashType,
                                            cdHash: HashDigest(bytes: directory.cdHash ?? []).hex, pageCount: directory.codeSlotCount,
                                            pageSize: directory.pageSize, flags: directory.flags, execSegFlags: directory.execSegFlags,
                                            boundSlots: bound)
    }

    private func checkPages(_ directory: CodeDirectory, bytes: UnsafeRawBufferPointer, path: String, architecture: String,
                            into problems: inout [CodeSignatureProblem]) {
        let limit = directory.codeLimit
        guard limit <= UInt64(bytes.count) else {
            problems.append(CodeSignatureProblem(path: path, cause: .malformed("the \(architecture) CodeDirectory covers \(limit) bytes of a \(bytes.count)-byte slice")))
            return
        }
        let pageSize = directory.pageSize
        let expected = limit == 0 ? 0 : Int((limit + pageSize - 1) / pageSize)
        guard expected == directory.codeSlotCount else {
            problems.append(CodeSignatureProblem(path: path, cause: .malformed("the \(architecture) CodeDirectory has \(directory.codeSlotCount) page hashes for \(expected) pages")))
            return
        }
        for page in 0 ..< directory.codeSlotCount {
            let start = Int(UInt64(page) * pageSize)
            let end = Int(min(UInt64(start) + pageSize, limit))
            let actual = directory.digest(UnsafeRawBufferPointer(rebasing: bytes[start ..< end])) ?? []
            if !actual.elementsEqual(directory.codeSlotHash(page)) {
                problems.append(CodeSignatureProblem(path: path, cause: .codePageChanged(architecture: architecture, page: page)))
                return
            }
        }
    }
}
