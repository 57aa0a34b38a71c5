/// Incremental decoder for the chunked transfer coding (RFC 9112 §7.1).
///
/// It accepts input split at any byte boundary, hands out the chunk data
/// without copying, skips chunk extensions and trailer fields (bounded), and
/// rejects anything that is not exactly CRLF-framed.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(value: UInt64, digits: Int, lineBytes: Int)
        case extensions(lineBytes: Int)
        case sizeLF(last: Bool)
        case data(remaining: UInt64)
        case dataCR
        case dataLF
        case trailerLineStart(totalBytes: Int)
        case trailerLine(totalBytes: Int, sawColon: Bool, nameBytes: Int)
        case trailerLF(totalBytes: Int)
        case finalLF
        case done
    }

    private var state: State = .size(value: 0, digits: 0, lineBytes: 0)
    private let lineLimit: Int
    private let trailerLimit: Int

    /// Creates a decoder; `lineLimit` bounds a chunk-size line, `trailerLimit` the trailer section.
    public init(lineLimit: Int = 4096, trailerLimit: Int = 64 * 1024) {
        self.lineLimit = lineLimit
        self.trailerLimit = trailerLimit
    }

    /// Whether the terminating chunk and trailer section have been read.
    public var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    /// Decodes from `input`, calling `data` with each piece of chunk payload.
    /// Returns the number of input bytes consumed; stops right after the body ends,
    /// so bytes of a pipelined next request stay unconsumed.
    public mutating func decode(_ input: UnsafeRawBufferPointer,
                                data: (UnsafeRawBufferPointer) -> Void) throws(HTTPParseError) -> Int {
        var index = 0
        let count = input.count
        while index < count {
            let byte = input[index]
            switch state {
            case .done:
                return index
            case .size(let value, let digits, let lineBytes):
                if let hex = ASCII.hexValue(byte) {
                    guard digits < 15 else { throw .invalidChunkSize }
                    state = .size(value: value << 4 | UInt64(hex), digits: digits + 1, lineBytes: lineBytes + 1)
                } else if digits > 0 && (byte == UInt8(ascii: ";") || byte == ASCII.space || byte == ASCII.tab) {
                    pendingSize = value
                    state = .extensions(lineBytes: lineBytes + 1)
                } else if digits > 0 && byte == ASCII.cr {
                    pendingSize = value
                    state = .sizeLF(last: value == 0)
                } else {
                    throw .invalidChunkSize
                }
                index += 1
            case .extensions(let lineBytes):
                guard lineBytes < lineLimit else { throw .malformedChunk }
                if byte == ASCII.cr {
                    state = .sizeLF(last: pendingSize == 0)
                } else if byte == ASCII.lf || (byte < 0x20 && byte != ASCII.tab) || byte == 0x7F {
                    throw .malformedChunk
                } else {
                    state = .extensions(lineBytes: lineBytes + 1)
                }
                index += 1
            case .sizeLF(let last):
                guard byte == ASCII.lf else { throw .malformedChunk }
                state = last ? .trailerLineStart(totalBytes: 0) : .data(remaining: pendingSize)
                index += 1
            case .data(let remaining):
                let available = UInt64(count - index)
                let take = Int(min(available, remaining))
                data(UnsafeRawBufferPointer(rebasing: input[index..<index + take]))
                index += take
                let left = remaining - UInt64(take)
                state = left == 0 ? .dataCR : .data(remaining: left)
            case .dataCR:
                guard byte == ASCII.cr else { throw .malformedChunk }
                state = .dataLF
                index += 1
            case .dataLF:
                guard byte == ASCII.lf else { throw .malformedChunk }
                state = .size(value: 0, digits: 0, lineBytes: 0)
                index += 1
            case .trailerLineStart(let total):
                if byte == ASCII.cr {
                    state = .finalLF
                } else if byte == ASCII.space || byte == ASCII.tab || !ASCII.isToken(byte) {
                    throw .malformedChunk
                } else {
                    state = .trailerLine(totalBytes: total + 1, sawColon: false, nameBytes: 1)
                }
                index += 1
            case .trailerLine(let total, let sawColon, let nameBytes):
                guard total < trailerLimit else { throw .malformedChunk }
                if byte == ASCII.cr {
                    guard sawColon else { throw .malformedChunk }
                    state = .trailerLF(totalBytes: total + 1)
                } else if sawColon {
                    guard ASCII.isFieldValueByte(byte) else { throw .malformedChunk }
                    state = .trailerLine(totalBytes: total + 1, sawColon: true, nameBytes: nameBytes)
                } else if byte == ASCII.colon {
                    state = .trailerLine(totalBytes: total + 1, sawColon: true, nameBytes: nameBytes)
                } else {
                    guard ASCII.isToken(byte) else { throw .malformedChunk }
                    state = .trailerLine(totalBytes: total + 1, sawColon: false, nameBytes: nameBytes + 1)
                }
                index += 1
            case .trailerLF(let total):
                guard byte == ASCII.lf else { throw .malformedChunk }
                state = .trailerLineStart(totalBytes: total + 1)
                index += 1
            case .finalLF:
                guard byte == ASCII.lf else { throw .malformedChunk }
                state = .done
                index += 1
                return index
            }
        }
        return index
    }

    private var pendingSize: UInt64 = 0
}
