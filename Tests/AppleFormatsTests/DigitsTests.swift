import Testing
@testable import AppleFormats

@Suite struct DigitsTests {
    @Test func digitRunsReadUpTo64BitsInDecimalAndHex() throws {
        #expect(try UInt64(digits: "18446744073709551615".utf8, radix: 10) == .max)
        #expect(try UInt64(digits: "ffffFFFFffffFFFF".utf8, radix: 16) == .max)
        #expect(try UInt64(digits: "0042".utf8, radix: 10) == 42)
        #expect(try UInt64(digits: "".utf8, radix: 10) == 0)
        #expect(throws: DigitsProblem.overflow) { try UInt64(digits: "18446744073709551616".utf8, radix: 10) }
        #expect(throws: DigitsProblem.overflow) { try UInt64(digits: "10000000000000000".utf8, radix: 16) }
        #expect(throws: DigitsProblem.notADigit) { try UInt64(digits: "12a".utf8, radix: 10) }
        #expect(throws: DigitsProblem.notADigit) { try UInt64(digits: "1g".utf8, radix: 16) }
        #expect(throws: DigitsProblem.notADigit) { try UInt64(digits: "1/".utf8, radix: 10) }
    }
}
