/// Property lists and JSON nested to a chosen depth, for the tests that hold parsers to their
/// nesting limits. Depth counts containers: `[[]]` nests 2 deep, and so does a dictionary holding
/// an empty array.
public enum NestedData {
    /// `depth` arrays, each holding the next; the innermost is empty.
    public static func jsonArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// `depth` objects, each holding the next as the member `"a"`; the innermost is empty.
    public static func jsonObjects(_ depth: Int) -> String {
        String(repeating: "{\"a\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
    }

    /// An XML property list: a dictionary of `entries` (strings) and `nestedKey`, whose value is
    /// arrays nested so that the whole plist nests `depth` deep (the dictionary is level 1).
    public static func xmlPlist(_ entries: [(String, String)] = [], nestedKey: String = "Nested", depth: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        for (key, value) in entries { text += "<key>\(key)</key><string>\(value)</string>\n" }
        if depth > 1 {
            text += "<key>\(nestedKey)</key>" + String(repeating: "<array>", count: depth - 1) + String(repeating: "</array>", count: depth - 1) + "\n"
        }
        return Array((text + "</dict>\n</plist>\n").utf8)
    }

    /// The same as `xmlPlist` as a binary plist (`bplist00`, 2-byte references, 4-byte offsets).
    public static func binaryPlist(_ entries: [(String, String)] = [], nestedKey: String = "Nested", depth: Int) -> [UInt8] {
        var objects: [[UInt8]] = []
        func add(_ object: [UInt8]) -> Int {
            objects.append(object)
            return objects.count - 1
        }
        func counted(_ marker: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
        }
        func string(_ text: String) -> Int { add(counted(0x50, text.utf8.count) + Array(text.utf8)) }
        func reference(_ index: Int) -> [UInt8] { [UInt8(index >> 8), UInt8(index & 0xFF)] }
        var keys: [Int] = [], values: [Int] = []
        for (key, value) in entries {
            keys.append(string(key))
            values.append(string(value))
        }
        if depth > 1 {
            var inner = add([0xA0])
            for _ in 1 ..< depth - 1 { inner = add([0xA1] + reference(inner)) }
            keys.append(string(nestedKey))
            values.append(inner)
        }
        let top = add(counted(0xD0, keys.count) + (keys + values).flatMap(reference))
        func bigEndian(_ value: Int, _ size: Int) -> [UInt8] { (0 ..< size).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(offset, 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2]
        return bytes + bigEndian(objects.count, 8) + bigEndian(top, 8) + bigEndian(table, 8)
    }
}
