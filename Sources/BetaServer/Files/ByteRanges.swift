/// Evaluation of a `Range: bytes=...` header against a representation length (RFC 9110 §14).
public enum ByteRanges {
    /// What to do with a Range header.
    public enum Outcome: Equatable, Sendable {
        /// Ignore it and send the whole representation (absent, invalid syntax, other unit, too many ranges).
        case whole
        /// Nothing overlaps the representation: 416 with `Content-Range: bytes */N`.
        case unsatisfiable
        /// Send these inclusive ranges, sorted and coalesced when more than one.
        case ranges([ClosedRange<Int64>])
    }

    /// Evaluates `header` for a representation of `length` bytes, honouring at most `maxRanges` ranges.
    public static func evaluate(_ header: String, length: Int64, maxRanges: Int = 16) -> Outcome {
        guard let equals = header.firstIndex(of: "="),
              HTTPHeaders.namesEqual(String(header[..<equals]).trimmingCharacters(), "bytes") else { return .whole }
        var satisfiable: [ClosedRange<Int64>] = []
        var specs = 0
        for element in header[header.index(after: equals)...].split(separator: ",") {
            let spec = element.trimmingOWS()
            if spec.isEmpty { continue }
            specs += 1
            guard specs <= maxRanges else { return .whole }
            guard let dash = spec.firstIndex(of: "-") else { return .whole }
            let firstText = spec[..<dash]
            let lastText = spec[spec.index(after: dash)...]
            if firstText.isEmpty {
                guard let suffix = number(lastText) else { return .whole }
                if suffix > 0 && length > 0 { satisfiable.append(max(0, length - suffix)...(length - 1)) }
            } else {
                guard let first = number(firstText) else { return .whole }
                var last = length - 1
                if !lastText.isEmpty {
                    guard let value = number(lastText), value >= first else { return .whole }
                    last = min(value, length - 1)
                }
                if first < length { satisfiable.append(first...last) }
            }
        }
        if specs == 0 { return .whole }
        if satisfiable.isEmpty { return .unsatisfiable }
        if satisfiable.count == 1 { return .ranges(satisfiable) }
        return .ranges(coalesce(satisfiable))
    }

    /// Sorts ranges and merges overlapping or adjacent ones.
    static func coalesce(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var result: [ClosedRange<Int64>] = []
        for range in sorted {
            if let last = result.last, range.lowerBound <= last.upperBound &+ 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int64(text)
    }
}

extension String {
    func trimmingCharacters() -> String { String(Substring(self).trimmingOWS()) }
}
