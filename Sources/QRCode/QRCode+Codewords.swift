extension QRCode {
    /// The byte-mode data codewords for `bytes` in `version`: mode indicator, character count, the
    /// bytes, the terminator, zero bits to a byte boundary, then the alternating pad codewords.
    static func dataCodewords(_ bytes: [UInt8], version: QRVersion) -> [UInt8] {
        let capacityBits = version.dataCodewords * 8
        var bits = BitBuffer(capacity: version.dataCodewords)
        bits.append(0b0100, width: 4)  // byte mode
        bits.append(bytes.count, width: version.characterCountBits)
        for byte in bytes { bits.append(Int(byte), width: 8) }
        bits.append(0, width: min(4, capacityBits - bits.count))
        bits.append(0, width: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < version.dataCodewords {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// The data split into the version's blocks, each followed by its Reed–Solomon codewords, then
    /// interleaved: the i-th data codeword of every block in turn, then the i-th error-correction
    /// codeword of every block in turn. Blocks are as even as possible; the longer ones come last.
    static func interleavedCodewords(_ data: [UInt8], version: QRVersion) -> [UInt8] {
        let blocks = version.blockCount
        let shortLength = version.dataCodewords / blocks
        let longBlocks = version.dataCodewords % blocks
        let shortBlocks = blocks - longBlocks
        let generator = ReedSolomon.generator(degree: version.errorCorrectionPerBlock)

        var dataBlocks: [ArraySlice<UInt8>] = []
        var correction: [[UInt8]] = []
        dataBlocks.reserveCapacity(blocks)
        correction.reserveCapacity(blocks)
        var start = 0
        for block in 0 ..< blocks {
            let length = shortLength + (block < shortBlocks ? 0 : 1)
            let slice = data[start ..< start + length]
            dataBlocks.append(slice)
            correction.append(ReedSolomon.remainder(of: slice, generator: generator))
            start += length
        }

        var out: [UInt8] = []
        out.reserveCapacity(version.totalCodewords)
        for index in 0 ... shortLength {
            for block in dataBlocks where index < block.count {
                out.append(block[block.startIndex + index])
            }
        }
        for index in 0 ..< version.errorCorrectionPerBlock {
            for block in correction { out.append(block[index]) }
        }
        return out
    }
}
