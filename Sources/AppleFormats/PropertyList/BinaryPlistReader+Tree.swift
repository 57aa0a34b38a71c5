extension BinaryPlistReader {
    /// What `objectStart` found: a finished value, or a container whose members are to be read.
    enum ObjectStart {
        case value(PlistValue)
        /// The element references.
        case array([Int])
        /// The key and value references, interleaved: key 0, value 0, key 1, value 1, …
        case dictionary([Int])
    }

    /// An array or dictionary being read: what is known of it, and its members so far.
    struct Frame {
        let reference: Int
        let offset: Int
        let marker: UInt8
        /// How many arrays and dictionaries enclose it.
        let depth: Int
        let isDictionary: Bool
        let members: [Int]
        var next = 0
        var elements: [PlistValue] = []
        var entries: [String: PlistValue] = [:]
        var key = ""
        /// How many values it expands to, itself included.
        var size = 1
        /// `deepest` as it was before this object was started, restored when it is finished.
        let outerDeepest: Int
    }

    /// An error naming the object, where it is and its marker byte.
    static func failure(reference: Int, offset: Int, marker: UInt8, _ what: String) -> PlistError {
        PlistError("object \(reference) at offset \(offset) (marker 0x\(String(marker, radix: 16))) \(what)")
    }

    /// Reads the object tree under `top` without recursion: containers being read wait on an
    /// explicit stack, so no input can exhaust the thread's stack, whatever its nesting (which
    /// `maxDepth` still bounds, for the recursive walks of the value afterwards).
    mutating func tree(_ top: Int) throws(PlistError) -> PlistValue {
        var stack: [Frame] = []
        var finished = try start(top, depth: 0, stack: &stack)
        while true {
            if let (value, size) = finished {
                guard !stack.isEmpty else { return value }
                try stack[stack.count - 1].receive(value, size: size)
                finished = nil
            }
            let frame = stack[stack.count - 1]
            if frame.next < frame.members.count {
                stack[stack.count - 1].next += 1
                finished = try start(frame.members[frame.next], depth: frame.depth + 1, stack: &stack)
            } else {
                stack.removeLast()
                let value: PlistValue = frame.isDictionary ? .dictionary(frame.entries) : .array(frame.elements)
                decoded[frame.reference] = (value, frame.size, deepest - frame.depth)
                deepest = max(frame.outerDeepest, deepest)
                active.remove(frame.reference)
                finished = (value, frame.size)
            }
        }
    }

    /// Starts reading object `reference` inside `depth` containers: a value (or an object read
    /// before) is returned with the number of values it expands to; a container is pushed.
    mutating func start(_ reference: Int, depth: Int, stack: inout [Frame]) throws(PlistError) -> (PlistValue, Int)? {
        guard reference < objectCount else { throw PlistError("a reference names object \(reference) of \(objectCount)") }
        if let known = decoded[reference] {
            guard depth + known.height <= Self.maxDepth else {
                throw PlistError.nestedTooDeep(depth: depth + known.height, limit: Self.maxDepth, at: "through object \(reference), ")
            }
            deepest = max(deepest, depth + known.height)
            try count(known.size)
            return (known.value, known.size)
        }
        guard active.insert(reference).inserted else { throw PlistError("object \(reference) contains itself") }
        let offset = try readInteger(at: offsetTable + reference * offsetSize, size: offsetSize)
        guard offset >= UInt64(Self.magic.count), offset < UInt64(offsetTable) else {
            throw PlistError("object \(reference) is at offset \(offset), outside the object area")
        }
        let outer = deepest
        deepest = depth
        switch try objectStart(at: Int(offset), reference: reference, depth: depth) {
        case let .value(value):
            decoded[reference] = (value, 1, deepest - depth)
            deepest = max(outer, deepest)
            active.remove(reference)
            return (value, 1)
        case let .array(members):
            stack.append(Frame(reference: reference, offset: Int(offset), marker: bytes[Int(offset)], depth: depth, isDictionary: false, members: members, outerDeepest: outer))
            stack[stack.count - 1].elements.reserveCapacity(members.count)
            return nil
        case let .dictionary(members):
            stack.append(Frame(reference: reference, offset: Int(offset), marker: bytes[Int(offset)], depth: depth, isDictionary: true, members: members, outerDeepest: outer))
            stack[stack.count - 1].entries.reserveCapacity(members.count / 2)
            return nil
        }
    }
}

extension BinaryPlistReader.Frame {
    /// Takes the member just read (`next` already points past it).
    mutating func receive(_ value: PlistValue, size: Int) throws(PlistError) {
        guard isDictionary else {
            elements.append(value)
            self.size += size
            return
        }
        let index = next - 1
        if index % 2 == 0 {
            guard case let .string(text) = value else {
                throw BinaryPlistReader.failure(reference: reference, offset: offset, marker: marker, "is a dictionary whose key \(index / 2) is not a string")
            }
            key = text
        } else {
            guard entries.updateValue(value, forKey: key) == nil else {
                throw BinaryPlistReader.failure(reference: reference, offset: offset, marker: marker, "is a dictionary with key \"\(key)\" twice")
            }
            self.size += size + 1
        }
    }
}
