/// Signs a Mach-O file (each slice of a fat file) as codesign does for a device build: a SHA-256
/// CodeDirectory (with a SHA-1 one first when the minimum OS predates iOS 11), the designated
/// requirement, XML and DER entitlements, and a CMS signature over the CodeDirectories.
///
/// The signature replaces the old one in place when it fits, so the load commands, and with them
/// every page hash of the code, stay as they were; otherwise `LC_CODE_SIGNATURE` and `__LINKEDIT`
/// grow before anything is hashed (page 0 holds the load commands).
public struct MachOSigner: Sendable {
    /// What to sign with.
    public struct Parameters: Sendable {
        /// The signing identifier.
        public var identifier: String
        /// The team identifier.
        public var teamIdentifier: String?
        /// The XML entitlements plist, exactly as it goes into the blob; nil for none (dylibs).
        public var entitlementsXML: [UInt8]?
        /// The DER entitlements; nil for none.
        public var entitlementsDER: [UInt8]?
        /// The bundle's Info.plist bytes, sealed by special slot 1 (main executables only).
        public var infoPlist: [UInt8]?
        /// The bundle's CodeResources bytes, sealed by special slot 3 (main executables only).
        public var codeResources: [UInt8]?

        /// Parameters for `identifier` in `teamIdentifier`.
        public init(identifier: String, teamIdentifier: String?, entitlementsXML: [UInt8]? = nil, entitlementsDER: [UInt8]? = nil,
                    infoPlist: [UInt8]? = nil, codeResources: [UInt8]? = nil) {
            self.identifier = identifier
            self.teamIdentifier = teamIdentifier
            self.entitlementsXML = entitlementsXML
            self.entitlementsDER = entitlementsDER
            self.infoPlist = infoPlist
            self.codeResources = codeResources
        }
    }

    /// The CMS signer.
    public var cms: any CodeSignatureCMSSigning

    /// A signer using `cms` for the CMS blob.
    public init(cms: any CodeSignatureCMSSigning) {
        self.cms = cms
    }

    /// Signs `file` (thin or fat) and returns the signed file.
    public func sign(_ file: [UInt8], path: String, parameters: Parameters) throws(CodeSigningError) -> [UInt8] {
        let header: MachOFile
        do { header = try file.withUnsafeBytes { raw throws(MachOError) in try MachOFile(bytes: raw) } } catch {
            throw CodeSigningError.unsupported(path: path, reason: "\(error)")
        }
        guard header.isFat else { return try signSlice(file, path: path, parameters: parameters) }
        var signed: [[UInt8]] = []
        for slice in header.slices {
            signed.append(try signSlice(Array(file[slice.offset ..< slice.offset + slice.size]), path: path, parameters: parameters))
        }
        return FatWriter.rewrite(file, slices: header.slices, signed: signed)
    }

    /// Signs one thin image.
    func signSlice(_ image: [UInt8], path: String, parameters: Parameters) throws(CodeSigningError) -> [UInt8] {
        var layout = try SliceLayout(image, path: path)
        guard layout.encryptionID == 0 else { throw CodeSigningError.encrypted(path: path) }
        var bytes = image
        // First with the signature space there is; again with more room if it does not fit.
        for attempt in 0 ..< 2 {
            let signature = try superBlob(bytes, layout: layout, path: path, parameters: parameters)
            if signature.count <= Int(layout.signatureSize) {
                bytes.replaceSubrange(Int(layout.signatureOffset)..., with: signature + [UInt8](repeating: 0, count: Int(layout.signatureSize) - signature.count))
                return bytes
            }
            guard attempt == 0 else { break }
            let size = UInt32((signature.count + 1024 + 15) / 16 * 16)
            bytes = try layout.resizeSignature(bytes, to: size, path: path)
            layout = try SliceLayout(bytes, path: path)
        }
        throw CodeSigningError.unsupported(path: path, reason: "the signature does not fit the space made for it")
    }

    /// The SuperBlob for `image` as laid out by `layout`.
    func superBlob(_ image: [UInt8], layout: SliceLayout, path: String, parameters: Parameters) throws(CodeSigningError) -> [UInt8] {
        let requirements = CodeRequirement.designated(identifier: parameters.identifier, leafCommonName: cms.signerCommonName)
        var special: [CodeDirectory.SpecialSlot: [UInt8]] = [.requirements: requirements]
        var blobs: [(UInt32, [UInt8])] = [(2, requirements)]
        if let info = parameters.infoPlist { special[.infoPlist] = info }
        if let resources = parameters.codeResources { special[.resourceDirectory] = resources }
        if let xml = parameters.entitlementsXML {
            let blob = Self.blob(CodeSignature.xmlEntitlementsMagic, xml)
            special[.entitlements] = blob
            blobs.append((5, blob))
        }
        if let der = parameters.entitlementsDER {
            let blob = Self.blob(CodeSignature.derEntitlementsMagic, der)
            special[.derEntitlements] = blob
            blobs.append((7, blob))
        }
        let hashTypes: [CodeDirectory.HashType] = layout.needsSHA1 ? [.sha1, .sha256] : [.sha256]
        var directories: [[UInt8]] = []
        image.withUnsafeBytes { raw in
            let code = UnsafeRawBufferPointer(rebasing: raw[0 ..< Int(layout.signatureOffset)])
            for type in hashTypes {
                var builder = CodeDirectoryBuilder(identifier: parameters.identifier, teamIdentifier: parameters.teamIdentifier, hashType: type)
                builder.execSegBase = layout.textOffset
                builder.execSegLimit = layout.textSize
                builder.execSegFlags = layout.isExecutable ? CodeDirectory.mainBinaryFlag : 0
                builder.specialSlots = special
                directories.append(builder.build(code: code))
            }
        }
        let cdHashes = directories.enumerated().map { index, directory in
            Array((hashTypes[index] == .sha1 ? SHA1.hash(directory) : SHA256.hash(directory)).bytes.prefix(20))
        }
        let plist = PlistValue.dictionary(["cdhashes": .array(cdHashes.map { .data($0) })])
        let envelope: [UInt8]
        do {
            envelope = try cms.signCodeDirectory(directories[0], cdHashesPlist: try XMLPlistWriter.write(plist))
        } catch {
            throw CodeSigningError.cmsFailed(path: path, reason: "\(error)")
        }
        var entries: [(UInt32, [UInt8])] = [(0, directories[0])]
        entries += blobs
        for (index, directory) in directories.dropFirst().enumerated() { entries.append((0x1000 + UInt32(index), directory)) }
        entries.append((0x10000, Self.blob(CodeSignature.blobWrapperMagic, envelope)))
        return Self.superBlob(entries)
    }

    static func blob(_ magic: UInt32, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        CodeRequirement.word(magic, &out)
        CodeRequirement.word(UInt32(8 + payload.count), &out)
        return out + payload
    }

    static func superBlob(_ entries: [(UInt32, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        let indexEnd = 12 + 8 * entries.count
        let total = indexEnd + entries.reduce(0) { $0 + $1.1.count }
        CodeRequirement.word(CodeSignature.superBlobMagic, &out)
        CodeRequirement.word(UInt32(total), &out)
        CodeRequirement.word(UInt32(entries.count), &out)
        var offset = indexEnd
        for (slot, bytes) in entries {
            CodeRequirement.word(slot, &out)
            CodeRequirement.word(UInt32(offset), &out)
            offset += bytes.count
        }
        for (_, bytes) in entries { out += bytes }
        return out
    }
}
