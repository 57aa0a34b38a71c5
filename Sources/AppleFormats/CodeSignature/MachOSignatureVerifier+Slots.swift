extension MachOSignatureVerifier {
    /// Checks every bound special slot against the blob or bundle file it seals.
    func checkSpecialSlots(_ directory: CodeDirectory, signature: CodeSignature, path: String, sealed: SealedFiles,
                           into problems: inout [CodeSignatureProblem]) {
        let blobs: [(CodeDirectory.SpecialSlot, UInt32)] = [(.requirements, 2), (.entitlements, 5), (.derEntitlements, 7)]
        for (slot, blobSlot) in blobs {
            guard let stored = directory.specialSlotHash(slot) else {
                if signature.blob(slot: blobSlot) != nil {
                    problems.append(CodeSignatureProblem(path: path, cause: .sealedByExecutableChanged(binary: path, what: slot.description)))
                }
                continue
            }
            let isBound = stored.contains { $0 != 0 }
            guard let blob = signature.blob(slot: blobSlot) else {
                if isBound { problems.append(CodeSignatureProblem(path: path, cause: .malformed("the \(slot) blob its CodeDirectory seals is missing"))) }
                continue
            }
            if !isBound || !(directory.digest(blob) ?? []).elementsEqual(stored) {
                problems.append(CodeSignatureProblem(path: path, cause: .sealedByExecutableChanged(binary: path, what: slot.description)))
            }
        }
        for (slot, file) in [(CodeDirectory.SpecialSlot.infoPlist, sealed.infoPlist), (.resourceDirectory, sealed.codeResources)] {
            guard let file else { continue }
            let stored = directory.specialSlotHash(slot)
            let isBound = stored.map { $0.contains { $0 != 0 } } ?? false
            guard let bytes = file.bytes else {
                if isBound { problems.append(CodeSignatureProblem(path: file.path, cause: .sealedByExecutableMissing(binary: path, what: slot.description))) }
                continue
            }
            guard isBound, let stored else {
                // A bundle executable must seal its Info.plist and resources; an unsealed one was
                // signed before they were added, or not as part of the bundle.
                problems.append(CodeSignatureProblem(path: file.path, cause: .notSealedByExecutable(binary: path)))
                continue
            }
            if !(directory.digest(bytes) ?? []).elementsEqual(stored) {
                problems.append(CodeSignatureProblem(path: file.path, cause: .sealedByExecutableChanged(binary: path, what: slot.description)))
            }
        }
    }

    /// Checks the CMS blob over the primary CodeDirectory and that it signs every alternate one.
    /// Returns the signing certificate when the signature holds.
    func checkCMS(_ signature: CodeSignature, directories: [(slot: UInt32, directory: CodeDirectory)], path: String,
                  into problems: inout [CodeSignatureProblem]) -> Certificate? {
        guard let wrapper = signature.blob(slot: 0x10000), wrapper.count > 8 else {
            problems.append(CodeSignatureProblem(path: path, cause: .adHocSigned))
            return nil
        }
        let envelope = Array(wrapper[8...])
        guard let cms, let primary = directories.first else { return nil }
        let signerDER: [UInt8]
        do {
            signerDER = try cms.verifyDetachedSignature(envelope, over: primary.directory.bytes)
        } catch {
            problems.append(CodeSignatureProblem(path: path, cause: .signatureInvalid("\(error)")))
            return nil
        }
        if directories.count > 1 {
            let signed = CodeSignatureCMSAttributes.cdHashes(in: envelope)
            for (slot, directory) in directories.dropFirst() {
                guard let cdHash = directory.cdHash, let signed, signed.contains(where: { $0.prefix(20).elementsEqual(cdHash) }) else {
                    problems.append(CodeSignatureProblem(path: path, cause: .alternateDirectoryUnsigned(slot: slot)))
                    continue
                }
            }
        }
        return try? Certificate(der: signerDER)
    }
}
