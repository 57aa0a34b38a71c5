/// Reed–Solomon error correction over GF(256) as QR codes use it: the field is built on the
/// primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D) with generator element α = 2, and the code
/// generator of degree n is (x − α⁰)(x − α¹)…(x − αⁿ⁻¹).
enum ReedSolomon {
    /// αⁱ for i in 0..<510, doubled so a sum of two logarithms needs no reduction modulo 255.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for power in 0 ..< 255 {
            table[power] = UInt8(value)
            table[power + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α(x) for x in 1...255 (index 0 is unused: zero has no logarithm).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for power in 0 ..< 255 { table[Int(exponents[power])] = power }
        return table
    }()

    /// The product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0 && b != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }

    /// The generator polynomial of `degree`, coefficients from the highest power down, the leading 1 omitted.
    static func generator(degree: Int) -> [UInt8] {
        // Start from 1 and multiply in (x − αⁱ); in GF(2⁸) subtraction is addition (XOR).
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0 ..< degree {
            for index in 0 ..< degree {
                coefficients[index] = multiply(coefficients[index], root)
                if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The error-correction codewords of `data`: the remainder of data(x)·xⁿ divided by the generator.
    static func remainder(of data: ArraySlice<UInt8>, generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        data.withUnsafeBufferPointer { data in
            generator.withUnsafeBufferPointer { generator in
                result.withUnsafeMutableBufferPointer { result in divide(data, by: generator, into: result) }
            }
        }
        return result
    }

    /// The long division of `remainder(of:generator:)`, `result` holding the running remainder.
    /// Written as `while` loops on raw pointers: an unoptimised build (tests, `swift run`) neither
    /// inlines nor specialises, and spent most of its time in `removeFirst`, array subscripts and the
    /// tables' accessors, which `exponents` and `logarithms` here are read through once.
    private static func divide(_ data: UnsafeBufferPointer<UInt8>, by generator: UnsafeBufferPointer<UInt8>,
                               into result: UnsafeMutableBufferPointer<UInt8>) {
        let degree = generator.count, count = data.count
        guard degree > 0, let input = data.baseAddress, let divisor = generator.baseAddress, let rest = result.baseAddress else { return }
        exponents.withUnsafeBufferPointer { exponentsBuffer in
            logarithms.withUnsafeBufferPointer { logarithmsBuffer in
                guard let exponents = exponentsBuffer.baseAddress, let logarithms = logarithmsBuffer.baseAddress else { return }
                var position = 0
                while position < count {
                    let factor = input[position] ^ rest[0]
                    // Multiply the remainder by x: every coefficient moves up one power.
                    var index = 0
                    while index &+ 1 < degree {
                        rest[index] = rest[index &+ 1]
                        index &+= 1
                    }
                    rest[degree &- 1] = 0
                    if factor != 0 {
                        let logFactor = logarithms[Int(factor)]
                        index = 0
                        while index < degree {
                            let coefficient = divisor[index]
                            if coefficient != 0 { rest[index] ^= exponents[logarithms[Int(coefficient)] &+ logFactor] }
                            index &+= 1
                        }
                    }
                    position &+= 1
                }
            }
        }
    }
}
