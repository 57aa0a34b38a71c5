// Fuzzing only: compiled into the Multipart module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats

/// The Multipart targets by name.
public enum MultipartFuzz {
    /// Every target of this module.
    public static let targets: [String: FuzzTarget] = ["multipart": body]

    /// What one parse gave, comparably.
    enum Outcome: Equatable {
        case parts([MultipartPartHead], [[UInt8]])
        case failed(MultipartError)
    }

    struct Collecting: MultipartPartConsumer {
        var bytes: [UInt8] = []
        mutating func consume(_ chunk: UnsafeRawBufferPointer) { bytes.append(contentsOf: chunk) }
        mutating func finish() -> [UInt8] { bytes }
        mutating func discard() { bytes = [] }
    }

    static let tight = MultipartLimits(maxParts: 6, headerBytesPerPart: 300, bytesPerPart: 2000, bytesPerField: ["a": 40, "ipa": 8000],
                                       totalBytes: 12_000, preambleBytes: 200, epilogueBytes: 100)

    /// One input: a flags byte, a Content-Type line ending in LF, then the body.
    /// Flags: bit 0 strips the CRLF before the closing boundary, bit 1 uses tight limits,
    /// bit 2 also stores parts with `SpoolingConsumer` in a scratch directory.
    ///
    /// Checked: the body parsed whole and in random pieces gives the same parts or the same
    /// error; with spooling too, and no spool file is left behind; parts parsed without the
    /// CRLF option, written back as a body, parse to the same heads and bodies.
    static func body(_ input: UnsafeRawBufferPointer) {
        guard let flags = input.first else { return }
        let rest = UnsafeRawBufferPointer(rebasing: input[1...])
        let newline = rest.firstIndex(of: 0x0A) ?? rest.endIndex
        let contentType = String(decoding: rest[..<newline], as: UTF8.self)
        let body = UnsafeRawBufferPointer(rebasing: rest[min(rest.endIndex, newline + 1)...])
        let boundary: MultipartBoundary
        do {
            boundary = try MultipartBoundary(contentType: contentType)
        } catch {
            fuzzCheck(!error.description.isEmpty && error.category == .malformed, "Content-Type error \(error) has no message or is not .malformed")
            return
        }
        let strips = flags & 1 != 0
        let limits = flags & 2 != 0 ? tight : MultipartLimits(totalBytes: 1 << 20)
        var splitter = FuzzSplitter(input)
        let whole = parse(body, boundary: boundary, limits: limits, strips: strips, splitter: nil)
        let pieces = parse(body, boundary: boundary, limits: limits, strips: strips, splitter: &splitter)
        fuzzCheck(whole == pieces, "parsing in pieces gives \(pieces), all at once \(whole)")
        if case let .failed(error) = whole { fuzzConsume(error.description) }
        if flags & 4 != 0 { checkSpooling(body, boundary: boundary, limits: limits, strips: strips, expected: whole, splitter: &splitter) }
        if !strips, case let .parts(heads, bodies) = whole { checkRoundTrip(heads, bodies, boundary: boundary, limits: limits) }
        if strips { checkStrippedAgainstPlain(whole, parse(body, boundary: boundary, limits: limits, strips: false, splitter: nil)) }
    }

    /// The CRLF option may only take one CRLF off the last part: every other head and body is
    /// the same, and an outcome may differ only by that CRLF pushing a part over its limit.
    static func checkStrippedAgainstPlain(_ stripped: Outcome, _ plain: Outcome) {
        switch (stripped, plain) {
        case let (.parts(heads, bodies), .parts(plainHeads, plainBodies)):
            fuzzCheck(heads == plainHeads && bodies.dropLast() == plainBodies.dropLast(), "the CRLF option changed more than the last part")
            if let last = bodies.last, let plainLast = plainBodies.last {
                fuzzCheck(plainLast == last || plainLast == last + [0x0D, 0x0A], "the CRLF option took more than one CRLF off the last part")
            }
        case (.parts, .failed(.partTooLarge)), (.failed, .failed):
            break
        default:
            fuzzCheck(false, "with the CRLF option \(stripped), without \(plain)")
        }
    }

    static func parse(_ body: UnsafeRawBufferPointer, boundary: MultipartBoundary, limits: MultipartLimits, strips: Bool,
                      splitter: UnsafeMutablePointer<FuzzSplitter>?) -> Outcome {
        var parser = MultipartParser(boundary: boundary, limits: limits, stripsCRLFBeforeCloseDelimiter: strips) { _ in Collecting() }
        do {
            var offset = 0
            while offset < body.count {
                let end = splitter.map { min(body.count, offset + $0.pointee.next(64)) } ?? body.count
                try parser.feed(UnsafeRawBufferPointer(rebasing: body[offset..<end]))
                fuzzCheck(parser.carry.count <= parser.lookahead, "the parser carries \(parser.carry.count) bytes")
                offset = end
            }
            let parts = try parser.finish()
            for (index, part) in parts.enumerated() {
                fuzzCheck(part.head.index == index, "part \(index) has index \(part.head.index)")
                fuzzCheck(Int64(part.value.count) <= limits.bytes(forField: part.head.name), "part \(index) is over its limit")
            }
            fuzzCheck(parts.count <= limits.maxParts, "\(parts.count) parts, limit \(limits.maxParts)")
            return .parts(parts.map(\.head), parts.map(\.value))
        } catch {
            return .failed(error)
        }
    }

    static func parse(_ body: UnsafeRawBufferPointer, boundary: MultipartBoundary, limits: MultipartLimits, strips: Bool,
                      splitter: inout FuzzSplitter) -> Outcome {
        withUnsafeMutablePointer(to: &splitter) { parse(body, boundary: boundary, limits: limits, strips: strips, splitter: $0) }
    }

    static func checkSpooling(_ body: UnsafeRawBufferPointer, boundary: MultipartBoundary, limits: MultipartLimits, strips: Bool,
                              expected: Outcome, splitter: inout FuzzSplitter) {
        var template = Array("/tmp/multipart-fuzz-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) != nil else { return }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { rmdir(directory) }
        do {
            var parser = MultipartParser(boundary: boundary, limits: limits, spoolDirectory: directory, memoryThreshold: 16,
                                         stripsCRLFBeforeCloseDelimiter: strips)
            var outcome: Outcome
            do throws(MultipartError) {
                var offset = 0
                while offset < body.count {
                    let end = min(body.count, offset + splitter.next(128))
                    try parser.feed(UnsafeRawBufferPointer(rebasing: body[offset..<end]))
                    offset = end
                }
                let parts = try parser.finish()
                var bodies: [[UInt8]] = []
                for part in parts { bodies.append(try part.value.readAll()) }
                outcome = .parts(parts.map(\.head), bodies)
            } catch {
                outcome = .failed(error)
                fuzzCheck(entries(directory) == 0, "a failed parse (\(error)) left spool files")
            }
            fuzzCheck(outcome == expected, "spooling gives \(outcome), collecting \(expected)")
        }
        fuzzCheck(entries(directory) == 0, "dropped parts left spool files")
    }

    static func entries(_ directory: String) -> Int {
        guard let handle = opendir(directory) else { return -1 }
        defer { closedir(handle) }
        var count = 0
        while let entry = readdir(handle) {
            let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
            let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }

    /// Parts written back as a body (their header fields as read) must parse to themselves.
    static func checkRoundTrip(_ heads: [MultipartPartHead], _ bodies: [[UInt8]], boundary: MultipartBoundary, limits: MultipartLimits) {
        var written: [UInt8] = []
        for (head, body) in zip(heads, bodies) {
            written += Array("--\(boundary.value)\r\n".utf8)
            for field in head.fields { written += Array("\(field.name): \(field.value)\r\n".utf8) }
            written += [0x0D, 0x0A] + body + [0x0D, 0x0A]
        }
        written += Array("--\(boundary.value)--".utf8)
        var relaxed = limits
        relaxed.totalBytes = Int64(written.count)
        relaxed.preambleBytes = 0
        relaxed.epilogueBytes = 0
        let again = written.withUnsafeBytes { parse($0, boundary: boundary, limits: relaxed, strips: false, splitter: nil) }
        fuzzCheck(again == .parts(heads, bodies), "written back, the parts parse to \(again)")
    }
}
