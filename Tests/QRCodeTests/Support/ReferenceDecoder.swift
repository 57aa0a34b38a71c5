@testable import QRCode

/// A small QR code reader for finished symbols, written for the tests from the standard rather
/// than from the encoder: it reads the format information, removes the mask, collects the
/// codewords in placement order, de-interleaves the blocks, checks every block's Reed–Solomon
/// syndromes are zero and parses the byte-mode segment, insisting on the standard terminator and
/// pad codewords. Only the block structure (level M's table) is taken from the encoder.
enum ReferenceDecoder {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    struct Decoded: Equatable {
        var bytes: [UInt8]
        var errorCorrectionLevel: Int  // the two indicator bits: 00 is M
        var mask: Int
    }

    static func decode(_ code: QRCode) throws -> Decoded {
        let version = (code.size - 17) / 4
        guard (1 ... 40).contains(version), code.size == 17 + 4 * version else { throw Failure("size \(code.size) is no version") }
        let copies = ReferenceLayout.formatCopies(code)
        guard copies.first == copies.second else { throw Failure("the two format copies differ") }
        let format = copies.first ^ 0x5412
        guard ReferenceLayout.polynomialRemainder(format, divisor: 0x537, valueBits: 15, divisorBits: 11) == 0 else {
            throw Failure("format bits \(String(format, radix: 2)) fail their BCH check")
        }
        let level = format >> 13, mask = (format >> 10) & 7

        // Codeword bits in placement order: column pairs from the right, snaking up and down.
        let function = ReferenceLayout.functionMap(version: version)
        var bits: [UInt8] = []
        var upwards = true
        var column = code.size - 1
        while column > 0 {
            if column == 6 { column -= 1 }
            for step in 0 ..< code.size {
                let y = upwards ? code.size - 1 - step : step
                for x in [column, column - 1] where !function[y][x] {
                    let dark = code.isDark(x: x, y: y)
                    bits.append(dark != maskInverts(mask, row: y, column: x) ? 1 : 0)
                }
            }
            upwards.toggle()
            column -= 2
        }
        let layout = QRVersion.number(version)
        let total = bits.count / 8
        guard total == layout.totalCodewords else { throw Failure("\(total) codewords, the table says \(layout.totalCodewords)") }
        guard bits[(total * 8)...].allSatisfy({ $0 == 0 }) else { throw Failure("remainder bits are not light before masking") }
        let codewords = (0 ..< total).map { index in bits[index * 8 ..< index * 8 + 8].reduce(UInt8(0)) { $0 << 1 | $1 } }

        // De-interleave: the short blocks come first and lack the last data column.
        let blocks = layout.blockCount, ecLength = layout.errorCorrectionPerBlock
        let dataTotal = total - blocks * ecLength
        let shortData = dataTotal / blocks, longBlocks = dataTotal % blocks
        var blockData = [[UInt8]](repeating: [], count: blocks)
        var cursor = 0
        for index in 0 ... shortData {
            for block in 0 ..< blocks where index < shortData || block >= blocks - longBlocks {
                blockData[block].append(codewords[cursor])
                cursor += 1
            }
        }
        var blockCorrection = [[UInt8]](repeating: [], count: blocks)
        for _ in 0 ..< ecLength {
            for block in 0 ..< blocks {
                blockCorrection[block].append(codewords[cursor])
                cursor += 1
            }
        }
        for block in 0 ..< blocks {
            let word = blockData[block] + blockCorrection[block]
            for root in 0 ..< ecLength where evaluate(word, at: power(2, root)) != 0 {
                throw Failure("block \(block) has a non-zero syndrome S\(root)")
            }
        }
        let data = blockData.flatMap { $0 }
        return Decoded(bytes: try parseByteSegment(data, version: version), errorCorrectionLevel: level, mask: mask)
    }

    /// The mask conditions as the standard's table states them (i row, j column).
    static func maskInverts(_ mask: Int, row i: Int, column j: Int) -> Bool {
        switch mask {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: ((i / 2) + (j / 3)) % 2 == 0
        case 5: ((i * j) % 2) + ((i * j) % 3) == 0
        case 6: (((i * j) % 2) + ((i * j) % 3)) % 2 == 0
        default: (((i + j) % 2) + ((i * j) % 3)) % 2 == 0
        }
    }

    /// Mode 0100, the count, the bytes, then a terminator of up to four zero bits, zero bits to a
    /// byte boundary, and 0xEC 0x11 alternately to the end.
    static func parseByteSegment(_ data: [UInt8], version: Int) throws -> [UInt8] {
        var position = 0
        func read(_ width: Int) throws -> Int {
            guard position + width <= data.count * 8 else { throw Failure("the data ends inside a field") }
            var value = 0
            for _ in 0 ..< width {
                value = value << 1 | Int((data[position / 8] >> (7 - UInt8(position % 8))) & 1)
                position += 1
            }
            return value
        }
        guard try read(4) == 0b0100 else { throw Failure("the first segment is not byte mode") }
        let count = try read(version < 10 ? 8 : 16)
        let bytes = try (0 ..< count).map { _ in UInt8(try read(8)) }
        let terminator = min(4, data.count * 8 - position)
        guard try read(terminator) == 0 else { throw Failure("the terminator is not zero") }
        guard try read((8 - position % 8) % 8) == 0 else { throw Failure("the bits to the byte boundary are not zero") }
        for (offset, pad) in data[(position / 8)...].enumerated() where pad != (offset % 2 == 0 ? 0xEC : 0x11) {
            throw Failure("pad codeword \(offset) is \(pad)")
        }
        return bytes
    }

    // The arithmetic below is plain loops with masking shifts (`&<<`, `&>>`): a debug build runs
    // `reduce` closures and the generic `<<=`/`>>=` as unspecialised calls, and every block's
    // syndromes take tens of thousands of products.

    /// GF(256) product by shift and add, reducing by 0x11D (no tables, unlike the encoder).
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var result = 0, x = Int(a), y = Int(b)
        while y != 0 {
            if y & 1 != 0 { result ^= x }
            x = x &<< 1
            if x & 0x100 != 0 { x ^= 0x11D }
            y = y &>> 1
        }
        return UInt8(result)
    }

    static func power(_ base: UInt8, _ exponent: Int) -> UInt8 {
        var value: UInt8 = 1
        for _ in 0 ..< exponent { value = multiply(value, base) }
        return value
    }

    /// The codeword polynomial (first codeword is the highest power) at `x`, by Horner's rule.
    static func evaluate(_ word: [UInt8], at x: UInt8) -> UInt8 {
        var value: UInt8 = 0
        for index in word.indices { value = multiply(value, x) ^ word[index] }
        return value
    }
}
