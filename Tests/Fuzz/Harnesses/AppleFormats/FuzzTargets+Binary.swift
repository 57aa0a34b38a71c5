// Fuzzing only: compiled into the AppleFormats module by Tests/Fuzz/fuzz.sh, never by SwiftPM.

extension AppleFormatsFuzz {
    static let probeArchitectures: [MachOArchitecture?] = [nil, .arm64, .arm64e, .armv7, .x86_64, MachOArchitecture(cpuType: 12, cpuSubtype: 0)]

    /// A fat or thin Mach-O file: every slice, its load commands, symbol table, sections and code signature.
    static func machO(_ bytes: UnsafeRawBufferPointer) {
        fuzzConsume(MachOFile.looksLikeMachO(bytes))
        let file: MachOFile
        do { file = try MachOFile(bytes: bytes) } catch {
            fuzzConsume(error.description)
            return
        }
        for architecture in probeArchitectures {
            do { fuzzConsume(try file.slice(choosing: architecture)) } catch { fuzzConsume(error.description) }
        }
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            fuzzConsume(slice.architecture.name)
            let image: MachOImage
            do { image = try MachOImage(bytes: sliceBytes) } catch {
                fuzzConsume(error.description)
                continue
            }
            fuzzConsume((image.uuid, image.buildVersion?.platformName, image.installName, image.linkedLibraries))
            fuzzConsume((image.section(named: "__text", segment: "__TEXT"), image.section(named: "__debug_str_offsets"), image.segment(named: "__TEXT")))
            for section in image.sectionsInSymbolOrder { fuzzConsume(MachOImage.contents(of: section, in: sliceBytes)) }
            for codeOnly in [false, true] {
                do {
                    let symbols = try image.definedSymbols(in: sliceBytes, codeOnly: codeOnly)
                    fuzzCheck(zip(symbols, symbols.dropFirst()).allSatisfy { $0.address <= $1.address }, "symbols are not sorted by address")
                } catch {
                    fuzzConsume(error.description)
                }
            }
            if let signature = image.codeSignatureBytes(in: sliceBytes) { codeSignature(signature) }
            let sections = DWARFSections(image: image, bytes: sliceBytes)
            if sections.hasDebugInfo { dwarf(sections, unitLimit: 4) }
        }
        // The whole verifier, structure and hashes (the CMS check needs libcrypto, outside AppleFormats).
        let verified = MachOSignatureVerifier(cms: nil).verify(bytes, path: "fuzz")
        fuzzConsume((verified.slices, verified.problems.map(\.description), verified.cdHashes))
    }

    /// The DWARF sections of one image, given as nine sections each preceded by its little-endian
    /// 32-bit length (info, abbrev, line, str, line_str, str_offsets, addr, ranges, rnglists); a
    /// length past the end takes what is left. Tests/Fuzz/seeds.py writes fixtures in this form.
    static func dwarf(_ bytes: UnsafeRawBufferPointer) {
        var named: [String: UnsafeRawBufferPointer] = [:]
        var reader = ByteReader(bytes)
        for name in dwarfSectionOrder {
            guard let claimed = try? reader.u32le() else { break }
            let count = min(Int(claimed), reader.remaining)
            guard let section = try? reader.bytes(count) else { break }
            named[name] = section
        }
        dwarf(DWARFSections(named: named), unitLimit: 512)
    }

    /// The order of sections in the `dwarf` target's input.
    static let dwarfSectionOrder = ["debug_info", "debug_abbrev", "debug_line", "debug_str", "debug_line_str",
                                    "debug_str_offsets", "debug_addr", "debug_ranges", "debug_rnglists"]

    /// What the symbol index builder does with a unit, plus the lookups a symbolicator makes.
    static func dwarf(_ sections: DWARFSections, unitLimit: Int) {
        let context = DWARFContext(sections: sections)
        fuzzConsume(context.unitHeaderError?.description)
        for index in context.unitHeaders.indices.prefix(unitLimit) {
            let summary: DWARFUnitSummary
            do { summary = try context.summary(ofUnitAt: index) } catch {
                fuzzConsume(error.description)
                continue
            }
            fuzzConsume(summary.errors.map(\.description))
            fuzzConsume(summary.unit.name.flatMap { sections.string($0) })
            for subroutine in summary.subroutines {
                fuzzCheck(subroutine.rangeStart >= 0 && subroutine.rangeStart + subroutine.rangeCount <= summary.ranges.count, "subroutine ranges lie outside the unit's ranges")
                fuzzCheck(subroutine.parent < summary.subroutines.count && subroutine.subtreeEnd <= summary.subroutines.count, "subroutine tree links point outside the unit")
                fuzzConsume(subroutine.name.flatMap { sections.string($0) })
                fuzzConsume(summary.path(ofFile: subroutine.callFile, sections: sections))
            }
            if let table = summary.lineTable {
                for sequence in table.sequences {
                    fuzzCheck(sequence.lowerBound >= 0 && sequence.upperBound <= table.rows.count, "a line sequence lies outside the rows")
                }
                var files = Set<UInt64>()
                for row in table.rows where files.count < 64 { files.insert(row.file) }
                for file in files { fuzzConsume(summary.path(ofFile: file, sections: sections)) }
            }
            for range in summary.ranges.prefix(16) { fuzzConsume(context.unitIndex(containing: Int(truncatingIfNeeded: range.low))) }
            if let rangesValue = summary.unit.rangesValue {
                do { fuzzConsume(try summary.unit.ranges(for: rangesValue, sections: sections)) } catch { fuzzConsume(error.description) }
            }
        }
        // A line program read on its own, as for a unit whose entry is damaged.
        do { fuzzConsume(try DWARFLineTable(sections: sections, offset: 0, unit: nil)) } catch { fuzzConsume(error.description) }
    }

    /// An embedded code signature (SuperBlob) and the entitlements in it.
    static func codeSignature(_ bytes: UnsafeRawBufferPointer) {
        let signature: CodeSignature
        do { signature = try CodeSignature(bytes: bytes) } catch {
            fuzzConsume(error.description)
            return
        }
        fuzzConsume((signature.identifier, signature.teamIdentifier, signature.blobs))
        do { fuzzConsume(try signature.parsedXMLEntitlements()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try signature.parsedDEREntitlements()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try signature.entitlements()?.mapValues(\.displayText)) } catch { fuzzConsume(error.description) }
        for blob in signature.blobs where blob.magic == CodeSignature.codeDirectoryMagic {
            guard let raw = signature.blob(slot: blob.slot) else { continue }
            do {
                let directory = try CodeDirectory(bytes: raw)
                fuzzConsume((directory.identifier, directory.teamIdentifier, directory.cdHash, directory.pageSize))
                for slot in CodeDirectory.SpecialSlot.allCases { fuzzConsume(directory.specialSlotHash(slot)) }
                if directory.codeSlotCount > 0 { fuzzConsume(directory.codeSlotHash(directory.codeSlotCount - 1)) }
            } catch {
                fuzzConsume(error.description)
            }
        }
        if let cms = signature.blob(slot: 0x10000), cms.count > 8 { fuzzConsume(CodeSignatureCMSAttributes.cdHashes(in: Array(cms.dropFirst(8)))) }
    }

    /// A symbol name as found in a symbol table or DWARF (Swift, C++ or plain).
    static func demangle(_ bytes: UnsafeRawBufferPointer) {
        // Names are NUL-terminated in the files they come from.
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0 ..< end]), as: UTF8.self)
        fuzzConsume(SymbolDemangler.isSwiftSymbol(name))
        fuzzConsume(SymbolDemangler.demangle(name))
    }
}
