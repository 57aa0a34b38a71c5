/// Bytes and file regions waiting to be written to a socket, in order.
struct OutboundQueue {
    enum Item {
        case bytes([UInt8], offset: Int)
        case file(OpenFile, offset: Int64, remaining: Int64)
    }

    private(set) var items: [Item] = []
    private var head = 0
    /// Buffered in-memory bytes (file regions are not counted: they cost no memory).
    private(set) var bufferedBytes = 0

    var isEmpty: Bool { head == items.count }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bufferedBytes += bytes.count
        items.append(.bytes(bytes, offset: 0))
    }

    mutating func append(file: OpenFile, offset: Int64, length: Int64) {
        guard length > 0 else { return }
        items.append(.file(file, offset: offset, remaining: length))
    }

    var first: Item? { head < items.count ? items[head] : nil }

    mutating func replaceFirst(_ item: Item) { items[head] = item }

    mutating func advanceBytes(_ count: Int) { bufferedBytes -= count }

    mutating func dropFirst() {
        items[head] = .bytes([], offset: 0)
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 8)
            head = 0
        }
    }

    mutating func removeAll() {
        items.removeAll()
        head = 0
        bufferedBytes = 0
    }
}
