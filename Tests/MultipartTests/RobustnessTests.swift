import Testing
@testable import Multipart

/// Truncations, bit flips and random bytes: each input gives its parts or a typed error, and
/// the sweeps say which one each byte position must give.
@Suite struct RobustnessTests {
    static let body = Bodies.small()
    let b = Bodies.boundary

    func reference(_ builder: BodyBuilder, _ index: Int) -> MultipartError.Part {
        MultipartError.Part(number: index + 1, name: builder.parts[index].head.name)
    }

    /// What parsing the first `count` bytes must give, from where the cut falls.
    func expectedTruncation(_ builder: BodyBuilder, at count: Int) -> Outcome {
        if count >= builder.closeEnd { return .parts(builder.parts) }
        let close = builder.parts.count
        guard let last = (0...close).last(where: { builder.delimiterEnd($0) <= count }) else {
            return .failed(.boundaryNotFound(boundary: builder.boundary))
        }
        // In the closing boundary's "--": the last part is still open.
        if last == close { return .failed(.truncated(boundary: b, part: reference(builder, close - 1))) }
        // Right after a boundary the part before it is still open; once its line's CR is read it is finished.
        if count == builder.delimiterEnd(last) { return .failed(.truncated(boundary: b, part: last > 0 ? reference(builder, last - 1) : nil)) }
        if count < builder.range(of: .lineEnd(last)).upperBound { return .failed(.truncated(boundary: b, part: nil)) }
        if count < builder.range(of: .headers(last)).upperBound { return .failed(.truncated(boundary: b, part: .init(number: last + 1))) }
        return .failed(.truncated(boundary: b, part: reference(builder, last)))
    }

    @Test func everyTruncationGivesTheErrorForWhereItFalls() {
        let builder = Self.body
        var seen: Set<String> = []
        for count in 0...builder.bytes.count {
            let outcome = parse(Array(builder.bytes[..<count]))
            #expect(outcome == expectedTruncation(builder, at: count), "cut to \(count) bytes")
            seen.insert(outcome.error.map { "\($0)".components(separatedBy: " ").prefix(6).joined(separator: " ") } ?? "parts")
        }
        // The sweep reaches every kind of ending: before any boundary, in each state, and complete.
        #expect(seen.count >= 6, "\(seen)")
    }

    enum FlipExpectation {
        case exactly(Outcome)
        /// A boundary line that no longer ends as one.
        case malformedBoundaryLine
        /// A header problem of part `index`, or the same bodies with only that part's head changed.
        case headerOf(Int)
    }

    /// What flipping one bit of the byte at `position` must do, from the byte's role.
    func expectedFlip(_ builder: BodyBuilder, position: Int, flipped: [UInt8]) -> FlipExpectation {
        let parts = builder.parts
        func shifted(_ list: ArraySlice<ParsedPart>, by offset: Int) -> [ParsedPart] {
            list.map { var part = $0; part.head.index += offset; return part }
        }
        switch builder.roles[position] {
        case .preamble, .epilogue:
            return .exactly(.parts(parts))
        case .content(let index):
            var changed = parts
            changed[index].body = Array(flipped[builder.range(of: .content(index))])
            return .exactly(.parts(changed))
        case .lineEnd:
            return .malformedBoundaryLine
        case .headers(let index):
            return .headerOf(index)
        case .delimiter(let index):
            // The delimiter no longer matches: what it separated runs together.
            if index == parts.count { return .exactly(.failed(.truncated(boundary: b, part: reference(builder, index - 1)))) }
            if index == 0 { return .exactly(.parts(shifted(parts[1...], by: -1))) }
            var merged = Array(parts[..<index])
            let start = builder.range(of: .content(index - 1)).lowerBound
            let end = builder.range(of: .delimiter(index + 1)).lowerBound
            merged[index - 1].body = Array(flipped[start..<end])
            return .exactly(.parts(merged + shifted(parts[(index + 1)...], by: -1)))
        }
    }

    @Test func everyBitFlipGivesTheOutcomeItsByteRoleCallsFor() {
        let builder = Self.body
        var random = SeededRandom(seed: 99)
        var kinds: [String: Int] = [:]
        for position in builder.bytes.indices {
            for bit in 0..<8 {
                var flipped = builder.bytes
                flipped[position] ^= 1 << bit
                let outcome = parse(flipped)
                let label = "byte \(position) (\(builder.roles[position])) bit \(bit)"
                switch expectedFlip(builder, position: position, flipped: flipped) {
                case .exactly(let expected):
                    #expect(outcome == expected, "\(label)")
                    kinds["exact", default: 0] += 1
                case .malformedBoundaryLine:
                    guard case .failed(.malformedBoundaryLine) = outcome else {
                        Issue.record("\(label) gave \(outcome), not a malformed boundary line")
                        continue
                    }
                    kinds["boundary line", default: 0] += 1
                case .headerOf(let index):
                    switch outcome {
                    case .parts(let parts):
                        #expect(parts.map(\.body) == builder.parts.map(\.body), "\(label)")
                        #expect(parts.enumerated().allSatisfy { $0.offset == index || $0.element.head == builder.parts[$0.offset].head }, "\(label)")
                        kinds["header accepted", default: 0] += 1
                    case .failed(.malformedHeader(let part, _)), .failed(.missingContentDisposition(let part)),
                         .failed(.invalidContentDisposition(let part, _)), .failed(.unsupportedTransferEncoding(let part, _)):
                        #expect(part.number == index + 1, "\(label)")
                        kinds["header refused", default: 0] += 1
                    case .failed(let error):
                        Issue.record("\(label) gave \(error), not a header error of part \(index + 1)")
                    }
                }
                // However the flipped body arrives.
                let cuts = (0..<3).map { _ in Int.random(in: 0...flipped.count, using: &random) }
                #expect(parse(flipped, cuts: cuts) == outcome, "\(label) cut at \(cuts)")
            }
        }
        #expect(kinds.count == 4, "\(kinds)")
    }

    @Test func randomBytesNeverContainTheBoundaryAndAreRefusedAsSuch() {
        var random = SeededRandom(seed: 7)
        let limit = MultipartLimits().preambleBytes
        let delimiter = "\r\n--\(b)".utf8.count
        for round in 0..<200 {
            let count = Int.random(in: 0...40_000, using: &random)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let outcome = parse(bytes, cuts: [Int.random(in: 0...count, using: &random)])
            if count <= limit {
                #expect(outcome == .failed(.boundaryNotFound(boundary: b)), "round \(round): \(count) bytes")
            } else if count > limit + delimiter {
                #expect(outcome == .failed(.preambleTooLarge(limit: limit)), "round \(round): \(count) bytes")
            } else {
                // The last bytes may be a possible boundary start, which does not count yet.
                #expect([.failed(.boundaryNotFound(boundary: b)), .failed(.preambleTooLarge(limit: limit))].contains(outcome), "round \(round)")
            }
        }
    }

    @Test func randomBytesInsideAPartAreItsBody() {
        var random = SeededRandom(seed: 8)
        for _ in 0..<50 {
            let content = RandomBodies.withoutDelimiter((0..<Int.random(in: 0...5000, using: &random)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            var builder = BodyBuilder()
            builder.part("blob", filename: "b.bin", contentType: "application/octet-stream", body: content)
            builder.close()
            let cuts = (0..<5).map { _ in Int.random(in: 0...builder.bytes.count, using: &random) }
            #expect(parse(builder.bytes, cuts: cuts) == .parts(builder.parts))
        }
    }
}
