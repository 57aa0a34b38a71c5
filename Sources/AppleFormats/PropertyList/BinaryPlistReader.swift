#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads binary property lists (`bplist00`) into `PlistValue`.
///
/// The layout: the 8-byte magic, the objects, a table of object offsets, and a 32-byte trailer
/// giving the table's position, the widths of offsets and object references, the object count
/// and the top object. Every offset and reference is bounds-checked; reference cycles, nesting
/// of arrays and dictionaries deeper than `maxDepth` and shared subtrees that would expand past `maxValues` are errors.
/// Values outside the property-list model (null, sets, keyed-archiver UIDs) are rejected.
struct BinaryPlistReader {
    static let magicPrefix = Array("bplist".utf8)
    static let magic = Array("bplist00".utf8)
    static let trailerSize = 32
    /// Deepest nesting of arrays and dictionaries: reading needs no recursion, but walking a
    /// `PlistValue` (equality, writing, release) does.
    static let maxDepth = PlistValue.maximumNesting
    // Objects may be referenced many times; this bounds the tree they expand to.
    static let maxValues = 1 << 20

    let bytes: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let offsetTable: Int
    // Decoded objects with the number of values each expands to, so shared objects are read once.
    /// Objects already read, with how many levels of arrays and dictionaries they hold (themselves
    /// included): a shared subtree referenced again from deeper down must still respect `maxDepth`.
    var decoded: [Int: (value: PlistValue, size: Int, height: Int)] = [:]
    /// The deepest nesting of arrays and dictionaries reached so far while reading the current object.
    var deepest = 0
    var active = Set<Int>()
    var values = 0

    static func parse(_ bytes: [UInt8]) throws(PlistError) -> PlistValue {
        var reader = try BinaryPlistReader(bytes: bytes)
        let top = try reader.readInteger(at: bytes.count - 16, size: 8)
        guard top < UInt64(reader.objectCount) else { throw PlistError("the top object \(top) is not among the \(reader.objectCount) objects") }
        return try reader.tree(Int(top))
    }

    init(bytes: [UInt8]) throws(PlistError) {
        self.bytes = bytes
        guard bytes.starts(with: Self.magic) else {
            throw PlistError("it starts with \"\(String(decoding: bytes.prefix(8), as: UTF8.self))\", but only version bplist00 is supported")
        }
        guard bytes.count >= Self.magic.count + 1 + Self.trailerSize else {
            throw PlistError("it is \(bytes.count) byte\(bytes.count == 1 ? "" : "s") long, too short to hold an object and the 32-byte trailer")
        }
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1 ... 8).contains(offsetSize), (1 ... 8).contains(referenceSize) else {
            throw PlistError("the trailer gives offsets of \(offsetSize) bytes and references of \(referenceSize) bytes; both must be 1 to 8")
        }
        var count: UInt64 = 0, table: UInt64 = 0
        for i in 0 ..< 8 {
            count = count << 8 | UInt64(bytes[trailer + 8 + i])
            table = table << 8 | UInt64(bytes[trailer + 24 + i])
        }
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard count > 0, table >= UInt64(Self.magic.count), !overflow, tableSize <= UInt64(trailer), table <= UInt64(trailer) - tableSize else {
            throw PlistError("the trailer's offset table (\(count) entries at offset \(table)) does not fit in the file")
        }
        objectCount = Int(count)
        offsetTable = Int(table)
    }

    func readInteger(at offset: Int, size: Int) throws(PlistError) -> UInt64 {
        guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else {
            throw PlistError("\(size) bytes at offset \(offset) lie outside the \(bytes.count)-byte file")
        }
        var value: UInt64 = 0
        for byte in bytes[offset ..< offset + size] { value = value << 8 | UInt64(byte) }
        return value
    }

    /// Records that an array or dictionary inside `depth` others is being read, refusing it past `maxDepth`.
    mutating func enterContainer(reference: Int, depth: Int) throws(PlistError) {
        guard depth < Self.maxDepth else {
            throw PlistError.nestedTooDeep(depth: depth + 1, limit: Self.maxDepth, at: "at object \(reference), ")
        }
        deepest = max(deepest, depth + 1)
    }

    mutating func count(_ size: Int) throws(PlistError) {
        values += size
        guard values <= Self.maxValues else { throw PlistError("the objects expand to more than \(Self.maxValues) values") }
    }

    /// What object `reference` at `offset` is: a value, or an array or dictionary whose members
    /// are still to be read (their references in reading order: a dictionary's key, then its value).
    mutating func objectStart(at offset: Int, reference: Int, depth: Int) throws(PlistError) -> ObjectStart {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        func fail(_ what: String) -> PlistError { Self.failure(reference: reference, offset: offset, marker: marker, what) }
        switch marker >> 4 {
        case 0x0:
            try count(1)
            switch marker {
            case 0x08: return .value(.bool(false))
            case 0x09: return .value(.bool(true))
            default: throw fail("is a null or fill object, which property lists cannot hold")
            }
        case 0x1:
            try count(1)
            return .value(.integer(try integer(at: offset, sizeExponent: low, fail: fail)))
        case 0x2:
            try count(1)
            switch low {
            case 2: return .value(.real(Double(Float(bitPattern: UInt32(try readInteger(at: offset + 1, size: 4))))))
            case 3: return .value(.real(Double(bitPattern: try readInteger(at: offset + 1, size: 8))))
            default: throw fail("is a real of \(1 << low) bytes; only 4 and 8 are valid")
            }
        case 0x3:
            try count(1)
            guard low == 3 else { throw fail("is a date that is not an 8-byte real") }
            let seconds = Double(bitPattern: try readInteger(at: offset + 1, size: 8))
            guard seconds.isFinite else { throw fail("is a date that is not a finite number") }
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            // The same dates an XML plist can hold, so that every plist read can also be written.
            guard UTCDateComponents.fourDigitYears.contains(date.timeIntervalSince1970) else {
                throw fail("is a date \(seconds) seconds from 2001, outside the years 0000 to 9999")
            }
            return .value(.date(date))
        case 0x4:
            try count(1)
            let (start, length) = try extent(at: offset, low: low, unit: 1, fail: fail)
            return .value(.data(Array(bytes[start ..< start + length])))
        case 0x5:
            try count(1)
            let (start, length) = try extent(at: offset, low: low, unit: 1, fail: fail)
            let ascii = bytes[start ..< start + length]
            guard ascii.allSatisfy({ $0 < 0x80 }) else { throw fail("is an ASCII string with bytes above 0x7F") }
            return .value(.string(String(decoding: ascii, as: UTF8.self)))
        case 0x6:
            try count(1)
            let (start, length) = try extent(at: offset, low: low, unit: 2, fail: fail)
            var units: [UInt16] = []
            units.reserveCapacity(length / 2)
            for i in stride(from: start, to: start + length, by: 2) { units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])) }
            guard let text = String(validating: units, as: UTF16.self) else { throw fail("is a UTF-16 string with unpaired surrogates") }
            return .value(.string(text))
        case 0xA:
            try count(1)
            try enterContainer(reference: reference, depth: depth)
            return .array(try references(at: offset, low: low, perEntry: 1, fail: fail))
        case 0xD:
            try count(1)
            try enterContainer(reference: reference, depth: depth)
            let references = try self.references(at: offset, low: low, perEntry: 2, fail: fail)
            let half = references.count / 2
            var interleaved: [Int] = []
            interleaved.reserveCapacity(references.count)
            for i in 0 ..< half { interleaved += [references[i], references[half + i]] }
            return .dictionary(interleaved)
        case 0x8:
            throw fail("is a keyed-archiver UID, which plain property lists cannot hold")
        case 0xB, 0xC:
            throw fail("is a set, which property lists cannot hold")
        default:
            throw fail("has an unknown type")
        }
    }

    /// An integer object: 1, 2 or 4 bytes unsigned, 8 bytes signed, or 16 bytes (the form Apple
    /// uses for values above Int64.max) when the value still fits in 64 signed bits.
    func integer(at offset: Int, sizeExponent: Int, fail: (String) -> PlistError) throws(PlistError) -> Int64 {
        switch sizeExponent {
        case 0, 1, 2: return Int64(try readInteger(at: offset + 1, size: 1 << sizeExponent))
        case 3: return Int64(bitPattern: try readInteger(at: offset + 1, size: 8))
        case 4:
            let high = try readInteger(at: offset + 1, size: 8), low = try readInteger(at: offset + 9, size: 8)
            let value = Int64(bitPattern: low)
            guard (high == 0 && value >= 0) || (high == UInt64.max && value < 0) else { throw fail("is an integer that does not fit in 64 bits") }
            return value
        default: throw fail("is an integer of \(1 << sizeExponent) bytes; only 1 to 16 are valid")
        }
    }

    /// Where the payload of a data, string or collection object starts and how many bytes it has:
    /// the count is in the marker's low nibble, or follows as an integer object when that is 0xF.
    func extent(at offset: Int, low: Int, unit: Int, fail: (String) -> PlistError) throws(PlistError) -> (start: Int, length: Int) {
        var start = offset + 1
        var count = UInt64(low)
        if low == 0x0F {
            guard start < bytes.count else { throw fail("has its count cut off") }
            let countMarker = bytes[start]
            guard countMarker >> 4 == 0x1 else { throw fail("has a count that is not an integer object") }
            let exponent = Int(countMarker & 0x0F)
            guard exponent <= 3 else { throw fail("has a count wider than 8 bytes") }
            count = try readInteger(at: start + 1, size: 1 << exponent)
            start += 1 + (1 << exponent)
        }
        let (length, overflow) = count.multipliedReportingOverflow(by: UInt64(unit))
        guard !overflow, start <= offsetTable, length <= UInt64(offsetTable - start) else {
            throw fail("claims \(count) entries, which run past the object area")
        }
        return (start, Int(length))
    }

    /// The object references of an array (one per entry) or dictionary (keys, then values).
    func references(at offset: Int, low: Int, perEntry: Int, fail: (String) -> PlistError) throws(PlistError) -> [Int] {
        let (start, length) = try extent(at: offset, low: low, unit: referenceSize * perEntry, fail: fail)
        var result: [Int] = []
        result.reserveCapacity(length / referenceSize)
        for position in stride(from: start, to: start + length, by: referenceSize) {
            let reference = try readInteger(at: position, size: referenceSize)
            guard reference < UInt64(objectCount) else { throw fail("refers to object \(reference) of \(objectCount)") }
            result.append(Int(reference))
        }
        return result
    }
}
