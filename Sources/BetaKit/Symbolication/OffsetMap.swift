/// A hash map from 64-bit offsets (addresses, string-table offsets) to values, for the
/// symbolicator's memory of what it already resolved.
///
/// `Dictionary` hashes every key with SipHash, which costs more than the rest of a repeated
/// address's work; offsets need no protection from crafted collisions (they come from our own
/// index and a bounded report), so a multiplicative hash with linear probing is enough. Values
/// sit in a dense array in insertion order and the table holds only keys and positions, plain
/// integers, so growing it never touches (retains, copies or frees) a value.
struct OffsetMap<Value> {
    private struct Slot {
        var key: UInt64
        var position: UInt32
    }

    private var slots: [Slot]
    private var values: [Value] = []
    private var shift: UInt64
    // Marks an empty slot; a real key with this value is kept aside.
    private static var empty: UInt64 { .max }
    private var emptyKeyPosition: Int?

    /// How many entries the map holds.
    var count: Int { values.count }

    /// An empty map with room for `capacity` entries before it grows.
    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = [Slot](repeating: Slot(key: Self.empty, position: 0), count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        values.reserveCapacity(capacity)
    }

    @inline(__always)
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Where `key`'s value is in `values`, or the empty slot where it would go.
    @inline(__always)
    private func find(_ key: UInt64) -> (slot: Int, position: Int?) {
        let mask = slots.count - 1
        var slot = home(key)
        while true {
            let found = slots[slot]
            if found.key == key { return (slot, Int(found.position)) }
            if found.key == Self.empty { return (slot, nil) }
            slot = (slot + 1) & mask
        }
    }

    /// The value stored for `key`.
    subscript(key: UInt64) -> Value? {
        if key == Self.empty { return emptyKeyPosition.map { values[$0] } }
        return find(key).position.map { values[$0] }
    }

    /// Stores `value` for `key`, replacing any earlier value.
    mutating func set(_ value: Value, for key: UInt64) {
        if key == Self.empty {
            if let position = emptyKeyPosition {
                values[position] = value
            } else {
                emptyKeyPosition = values.count
                values.append(value)
            }
            return
        }
        let (slot, position) = find(key)
        if let position {
            values[position] = value
            return
        }
        guard values.count < Int(UInt32.max) else { return }
        slots[slot] = Slot(key: key, position: UInt32(values.count))
        values.append(value)
        if values.count * 2 > slots.count { grow() }
    }

    /// Forgets every entry.
    mutating func removeAll() {
        for slot in slots.indices { slots[slot].key = Self.empty }
        values.removeAll(keepingCapacity: true)
        emptyKeyPosition = nil
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(key: Self.empty, position: 0), count: old.count * 2)
        shift -= 1
        for entry in old where entry.key != Self.empty {
            slots[find(entry.key).slot] = entry
        }
    }
}

extension OffsetMap: Sendable where Value: Sendable {}
