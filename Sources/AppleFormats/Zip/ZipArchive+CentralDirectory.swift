extension ZipArchive {
    static func parseCentralDirectory(_ raw: [UInt8], expectedCount: Int, archiveSize: UInt64) throws(ZipError) -> [ZipEntry] {
        var entries: [ZipEntry] = []
        entries.reserveCapacity(min(expectedCount, 65536))
        var failure: ZipError?
        raw.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            do {
                for number in 0 ..< expectedCount {
                    let start = r.offset
                    guard try r.u32le() == centralHeaderSignature else {
                        failure = .malformed("central directory entry \(number + 1) of \(expectedCount) at offset \(start) has a bad signature")
                        return
                    }
                    let madeBy = try r.u16le()
                    _ = try r.u16le()  // version needed
                    let flags = try r.u16le(), method = try r.u16le()
                    _ = try r.u32le()  // DOS time and date
                    let crc = try r.u32le()
                    var compressed = UInt64(try r.u32le()), uncompressed = UInt64(try r.u32le())
                    let nameLength = Int(try r.u16le()), extraLength = Int(try r.u16le()), commentLength = Int(try r.u16le())
                    let diskStart = try r.u16le()
                    _ = try r.u16le()  // internal attributes
                    let external = try r.u32le()
                    var localOffset = UInt64(try r.u32le())
                    let nameBytes = try r.bytes(nameLength)
                    var extra = try r.subReader(extraLength)
                    try r.skip(commentLength)
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    guard !nameBytes.contains(0) else {
                        failure = .unsafeName(name.replacing("\0", with: "\\0"), reason: "contains a NUL character")
                        return
                    }
                    // Zip64 extra field: only the fields saturated in the fixed header are present, in this order.
                    while extra.remaining >= 4 {
                        let id = try extra.u16le(), size = Int(try extra.u16le())
                        var field = try extra.subReader(size)
                        guard id == 0x0001 else { continue }
                        if uncompressed == 0xffff_ffff { uncompressed = try field.u64le() }
                        if compressed == 0xffff_ffff { compressed = try field.u64le() }
                        if localOffset == 0xffff_ffff { localOffset = try field.u64le() }
                    }
                    if compressed == 0xffff_ffff || uncompressed == 0xffff_ffff || localOffset == 0xffff_ffff {
                        failure = .malformed("\"\(name)\" has zip64 size markers but no zip64 extra field")
                        return
                    }
                    if diskStart != 0 && diskStart != 0xffff {
                        failure = .unsupported(entry: name, "it starts on disk \(diskStart) of a multi-part archive")
                        return
                    }
                    entries.append(ZipEntry(name: name, method: method, flags: flags, crc32: crc, compressedSize: compressed,
                                            uncompressedSize: uncompressed, localHeaderOffset: localOffset,
                                            externalAttributes: external, madeByHost: UInt8(truncatingIfNeeded: madeBy >> 8)))
                }
            } catch {
                failure = .malformed("the central directory is cut short after \(entries.count) of \(expectedCount) entries (\(error))")
            }
        }
        if let failure { throw failure }
        return entries
    }

    static func validate(_ entries: [ZipEntry], limits: ZipLimits, centralDirectoryOffset: UInt64) throws(ZipError) {
        var total: UInt64 = 0
        var compressedTotal: UInt64 = 0
        var seen = Set<String>()
        for entry in entries {
            try ZipEntryName.validate(entry.name)
            guard seen.insert(entry.name).inserted else {
                throw ZipError.malformed("\"\(entry.name)\" appears twice, so different tools would extract different files")
            }
            let (sum, overflow) = total.addingReportingOverflow(entry.uncompressedSize)
            guard !overflow, sum <= limits.maxTotalUncompressedSize else {
                throw ZipError.limitExceeded("its entries would extract to more than \(limits.maxTotalUncompressedSize) bytes (limit reached at \"\(entry.name)\")")
            }
            total = sum
            // Every entry, small ones too (with a small allowance): many entries of 1000 KB of
            // zeros each are a bomb whose parts all look small.
            guard limits.allows(entry.uncompressedSize, from: entry.compressedSize, allowance: limits.entryRatioAllowance) else {
                throw ZipError.limitExceeded("\"\(entry.name)\" would expand \(entry.compressedSize) bytes to \(entry.uncompressedSize) (\(ZipLimits.ratioText(entry.uncompressedSize, entry.compressedSize)), limit \(limits.maxCompressionRatio):1)")
            }
            let (compressedSum, compressedOverflow) = compressedTotal.addingReportingOverflow(entry.compressedSize)
            compressedTotal = compressedOverflow ? .max : compressedSum
            guard entry.localHeaderOffset < centralDirectoryOffset,
                  entry.compressedSize <= centralDirectoryOffset - entry.localHeaderOffset else {
                throw ZipError.malformed("\"\(entry.name)\" claims data at offset \(entry.localHeaderOffset) of \(entry.compressedSize) bytes, beyond the start of the central directory")
            }
        }
        // The whole archive: its compressed data cannot exceed the file, so this bounds what it may
        // declare by the bytes it really has, before anything is inflated.
        guard limits.allows(total, from: compressedTotal, allowance: limits.totalRatioAllowance) else {
            throw ZipError.limitExceeded("its \(entries.count) entries would expand \(compressedTotal) bytes to \(total) (\(ZipLimits.ratioText(total, compressedTotal)) overall, limit \(limits.maxCompressionRatio):1)")
        }
        // Overlapping entries are how compact zip bombs reuse one compressed stream many times.
        let ordered = entries.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (previous, next) in zip(ordered, ordered.dropFirst()) {
            let (end, overflow) = previous.localHeaderOffset.addingReportingOverflow(30 &+ previous.compressedSize)
            guard !overflow, end <= next.localHeaderOffset else {
                throw ZipError.limitExceeded("the data of \"\(previous.name)\" overlaps \"\(next.name)\"; overlapping entries are a zip bomb technique")
            }
        }
    }
}
