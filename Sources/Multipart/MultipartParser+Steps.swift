extension MultipartParser {
    static var cr: UInt8 { 0x0D }
    static var lf: UInt8 { 0x0A }
    static var dash: UInt8 { 0x2D }

    /// Bytes of a chunk added to the carry before parsing it: enough to decide every delimiter
    /// that starts in the carry, plus the CRLF held back for `stripsCRLFBeforeCloseDelimiter`.
    var lookahead: Int { boundary.delimiter.count + 2 }

    /// Parses a chunk, joining it with the bytes the previous chunk left undecided. Only a
    /// lookahead's worth of the chunk is copied; the rest is parsed in place.
    mutating func process(_ chunk: UnsafeRawBufferPointer) throws(MultipartError) {
        var rest = chunk
        if !carry.isEmpty {
            var pending: [UInt8] = []
            swap(&pending, &carry)
            let take = min(rest.count, lookahead)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<take]))
            let consumed = try pending.withBytes { (bytes) throws(MultipartError) in try step(bytes) }
            let left = pending.count - consumed
            guard left <= take else {
                // Only when the whole chunk was shorter than the lookahead: keep it all.
                carry = Array(pending[consumed...])
                return
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[(take - left)...])
        }
        guard !rest.isEmpty else { return }
        let consumed = try step(rest)
        if consumed < rest.count { carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[consumed...])) }
    }

    /// Consumes as much of `buffer` as can be decided and returns how much; what is left is a
    /// possible delimiter start (and held-back CRLF) at the end of a preamble or part body.
    mutating func step(_ buffer: UnsafeRawBufferPointer) throws(MultipartError) -> Int {
        var index = 0
        while index < buffer.count {
            switch state {
            case .preamble:
                let (found, keep) = findDelimiter(buffer, from: index)
                preambleCount += (found ?? keep) - index
                guard preambleCount <= limits.preambleBytes else { throw .preambleTooLarge(limit: limits.preambleBytes) }
                guard let found else { return keep }
                index = found + boundary.delimiter.count
                state = .afterBoundary(heldCRLF: false)
            case .content:
                let (found, keep) = findDelimiter(buffer, from: index)
                guard let found else {
                    // Bytes that may turn out to be the CRLF before a closing boundary wait.
                    let end = stripsCRLFBeforeCloseDelimiter ? max(index, keep - 2) : keep
                    try deliver(UnsafeRawBufferPointer(rebasing: buffer[index..<end]))
                    return end
                }
                var end = found
                var held = false
                if stripsCRLFBeforeCloseDelimiter, found - index >= 2, buffer[found - 2] == Self.cr, buffer[found - 1] == Self.lf {
                    end = found - 2
                    held = true
                }
                try deliver(UnsafeRawBufferPointer(rebasing: buffer[index..<end]))
                index = found + boundary.delimiter.count
                state = .afterBoundary(heldCRLF: held)
            case let .afterBoundary(held):
                let byte = buffer[index]
                switch byte {
                case Self.dash:
                    state = .closing(heldCRLF: held)
                case HeaderParameters.space, HeaderParameters.tab:
                    try finishPart(heldCRLF: held, closing: false)
                    state = .padding(1)
                case Self.cr:
                    try finishPart(heldCRLF: held, closing: false)
                    state = .boundaryLineCR
                default:
                    throw boundaryLineError(byte)
                }
                index += 1
            case let .closing(held):
                guard buffer[index] == Self.dash else {
                    throw .malformedBoundaryLine(after: lastStarted, reason: "has a single \"-\" after the boundary")
                }
                try finishPart(heldCRLF: held, closing: true)
                state = .epilogue
                index += 1
            case let .padding(count):
                let byte = buffer[index]
                if byte == HeaderParameters.space || byte == HeaderParameters.tab {
                    guard count < Self.maximumPadding else {
                        throw .malformedBoundaryLine(after: lastStarted, reason: "has more than \(Self.maximumPadding) spaces after the boundary")
                    }
                    state = .padding(count + 1)
                } else if byte == Self.cr {
                    state = .boundaryLineCR
                } else {
                    throw boundaryLineError(byte)
                }
                index += 1
            case .boundaryLineCR:
                guard buffer[index] == Self.lf else {
                    throw .malformedBoundaryLine(after: lastStarted, reason: "has a CR that is not followed by LF")
                }
                index += 1
                guard parts.count < limits.maxParts else { throw .tooManyParts(limit: limits.maxParts) }
                header.removeAll(keepingCapacity: true)
                state = .headers
            case .headers:
                index = try readHeaders(buffer, from: index)
            case .epilogue:
                epilogueCount += buffer.count - index
                guard epilogueCount <= limits.epilogueBytes else { throw .epilogueTooLarge(limit: limits.epilogueBytes) }
                return buffer.count
            }
        }
        return index
    }

    func boundaryLineError(_ byte: UInt8) -> MultipartError {
        if byte == Self.lf {
            return .malformedBoundaryLine(after: lastStarted, reason: "ends with LF alone (lines must end with CRLF)")
        }
        return .malformedBoundaryLine(after: lastStarted, reason: "is followed by \(HeaderParameters.describe(byte))")
    }

    /// Collects a part's header section byte by byte (it is small and bounded) and starts the
    /// part's body at the empty line; returns the index after what it consumed.
    mutating func readHeaders(_ buffer: UnsafeRawBufferPointer, from start: Int) throws(MultipartError) -> Int {
        let part = MultipartError.Part(number: parts.count + 1)
        var index = start
        while index < buffer.count {
            let byte = buffer[index]
            index += 1
            let previous = header.last
            header.append(byte)
            guard header.count <= limits.headerBytesPerPart else {
                throw .headerSectionTooLarge(part: part, limit: limits.headerBytesPerPart)
            }
            if previous == Self.cr, byte != Self.lf { throw .malformedHeader(part: part, reason: "a CR is not followed by LF") }
            guard byte == Self.lf else { continue }
            guard previous == Self.cr else {
                throw .malformedHeader(part: part, reason: "a line ends with LF alone (lines must end with CRLF)")
            }
            let count = header.count
            if count == 2 || (count >= 4 && header[count - 4] == Self.cr && header[count - 3] == Self.lf) {
                try beginBody(header[..<max(0, count - 4)])
                return index
            }
        }
        return index
    }

    /// The header section is complete: reads it and asks for the part's consumer.
    mutating func beginBody(_ section: ArraySlice<UInt8>) throws(MultipartError) {
        let head = try MultipartPartHead(index: parts.count, headerSection: section)
        lastStarted = head.reference
        let consumer: Consumer
        do {
            consumer = try makeConsumer(head)
        } catch {
            throw Self.consumerError(error, part: head.reference)
        }
        openPart = OpenPart(head: head, consumer: consumer, received: 0, limit: limits.bytes(forField: head.name))
        state = .content
    }

    /// Hands body bytes to the open part's consumer, within the part's limit.
    mutating func deliver(_ bytes: UnsafeRawBufferPointer) throws(MultipartError) {
        guard !bytes.isEmpty, let received = openPart?.received, let limit = openPart?.limit else { return }
        let total = received + Int64(bytes.count)
        guard total <= limit else { throw .partTooLarge(part: lastStarted ?? MultipartError.Part(number: parts.count + 1), limit: limit) }
        openPart?.received = total
        do {
            // Optional chaining mutates the consumer in place, so its buffers are not copied.
            try openPart?.consumer.consume(bytes)
        } catch {
            throw Self.consumerError(error, part: lastStarted ?? MultipartError.Part(number: parts.count + 1))
        }
    }

    /// Ends the open part at a boundary: gives back a held CRLF unless the boundary closes the
    /// body, and stores the consumer's value.
    mutating func finishPart(heldCRLF: Bool, closing: Bool) throws(MultipartError) {
        guard openPart != nil else { return }
        if heldCRLF && !closing {
            try [Self.cr, Self.lf].withBytes { (bytes) throws(MultipartError) in try deliver(bytes) }
        }
        guard var part = openPart else { return }
        openPart = nil
        do {
            parts.append(MultipartPart(head: part.head, value: try part.consumer.finish()))
        } catch {
            part.consumer.discard()
            throw Self.consumerError(error, part: part.head.reference)
        }
    }

    /// A consumer's error as the parser reports it: its own storage errors get the part's name.
    static func consumerError(_ error: any Error, part: MultipartError.Part) -> MultipartError {
        guard let error = error as? MultipartError else { return .consumerFailed(part: part, reason: "\(error)") }
        if case let .storageFailed(nil, reason) = error { return .storageFailed(part: part, reason: reason) }
        return error
    }
}
