#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes `PlistValue` as a binary property list (`bplist00`): one object per value, containers
/// before their contents, dictionary keys sorted, integers in the narrowest width Apple uses
/// (1, 2 or 4 bytes unsigned, else 8 bytes signed) and strings as ASCII or UTF-16BE.
enum BinaryPlistWriter {
    static func write(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        var objects: [PlistValue] = []
        var children: [[Int]] = []
        _ = flatten(value, into: &objects, children: &children)
        let referenceSize = byteWidth(UInt64(objects.count))
        var out = BinaryPlistReader.magic
        var offsets: [UInt64] = []
        offsets.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            offsets.append(UInt64(out.count))
            try encode(object, references: children[index], referenceSize: referenceSize, to: &out)
        }
        let tableOffset = UInt64(out.count)
        let offsetSize = byteWidth(tableOffset)
        for offset in offsets { appendBigEndian(offset, size: offsetSize, to: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        appendBigEndian(UInt64(objects.count), size: 8, to: &out)
        appendBigEndian(0, size: 8, to: &out)  // the top object is the first
        appendBigEndian(tableOffset, size: 8, to: &out)
        return out
    }

    /// Numbers `value` and everything inside it; returns its object number.
    static func flatten(_ value: PlistValue, into objects: inout [PlistValue], children: inout [[Int]]) -> Int {
        let number = objects.count
        objects.append(value)
        children.append([])
        switch value {
        case let .array(elements):
            children[number] = elements.map { flatten($0, into: &objects, children: &children) }
        case let .dictionary(entries):
            let sorted = entries.sorted { $0.key < $1.key }
            let keyNumbers = sorted.map { flatten(.string($0.key), into: &objects, children: &children) }
            let valueNumbers = sorted.map { flatten($0.value, into: &objects, children: &children) }
            children[number] = keyNumbers + valueNumbers
        default:
            break
        }
        return number
    }

    static func encode(_ value: PlistValue, references: [Int], referenceSize: Int, to out: inout [UInt8]) throws(PlistError) {
        switch value {
        case let .bool(flag): out.append(flag ? 0x09 : 0x08)
        case let .integer(number): appendInteger(number, to: &out)
        case let .real(number):
            out.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &out)
        case let .date(date):
            // The binary format could hold any double, but readers (ours included) refuse what an
            // XML plist cannot express, so writing it would make a file that cannot be read back.
            guard UTCDateComponents.fourDigitYears.contains(date.timeIntervalSince1970) else {
                throw PlistError("the date \(date.timeIntervalSince1970) seconds from 1970 cannot be written in a binary property list: property list dates have four-digit years (0000 to 9999) and readers refuse others; store a date inside that range")
            }
            out.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &out)
        case let .data(bytes):
            appendMarker(0x40, count: bytes.count, to: &out)
            out += bytes
        case let .string(text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: text.utf8.count, to: &out)
                out.append(contentsOf: text.utf8)
            } else {
                let units = Array(text.utf16)
                appendMarker(0x60, count: units.count, to: &out)
                for unit in units { appendBigEndian(UInt64(unit), size: 2, to: &out) }
            }
        case .array, .dictionary:
            let isArray = if case .array = value { true } else { false }
            appendMarker(isArray ? 0xA0 : 0xD0, count: isArray ? references.count : references.count / 2, to: &out)
            for reference in references { appendBigEndian(UInt64(reference), size: referenceSize, to: &out) }
        }
    }

    static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        let size = number < 0 ? 8 : byteWidth(UInt64(number))
        let exponent = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
        out.append(0x10 | UInt8(exponent))
        appendBigEndian(UInt64(bitPattern: number), size: 1 << exponent, to: &out)
    }

    /// A type marker with the count in its low nibble, or 0xF and an integer object for 15 and more.
    static func appendMarker(_ type: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(type | UInt8(count))
        } else {
            out.append(type | 0x0F)
            appendInteger(Int64(count), to: &out)
        }
    }

    /// How many bytes (1, 2, 4 or 8) hold `value`.
    static func byteWidth(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    static func appendBigEndian(_ value: UInt64, size: Int, to out: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
