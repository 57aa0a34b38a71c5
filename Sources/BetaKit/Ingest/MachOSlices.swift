import AppleFormats

/// Reads the slices of an executable or DWARF file: architecture, UUID, minimum OS and signed entitlements.
enum MachOSlices {
    static func read(_ bytes: UnsafeRawBufferPointer) -> (slices: [IngestedSlice], problems: [String]) {
        let file: MachOFile
        do {
            file = try MachOFile(bytes: bytes)
        } catch {
            return ([], [error.description])
        }
        var slices: [IngestedSlice] = []
        var problems: [String] = []
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            do {
                let image = try MachOImage(bytes: sliceBytes)
                var entry = IngestedSlice(architecture: image.architecture, uuid: image.uuid,
                                          minimumOS: image.buildVersion?.minimumOS, platform: image.buildVersion?.platformName,
                                          entitlements: nil, signingIdentifier: nil)
                if let signatureBytes = image.codeSignatureBytes(in: sliceBytes) {
                    do {
                        let signature = try CodeSignature(bytes: signatureBytes)
                        entry.signingIdentifier = signature.identifier
                        entry.entitlements = try signature.entitlements()
                    } catch {
                        problems.append("the \(image.architecture) slice's code signature: \(error)")
                    }
                } else if image.codeSignature != nil {
                    problems.append("the \(image.architecture) slice's LC_CODE_SIGNATURE points outside the file; re-sign the app with codesign")
                }
                slices.append(entry)
            } catch {
                problems.append("the \(slice.architecture) slice: \(error)")
            }
        }
        return (slices, problems)
    }
}
