/// Reads and writes Apple's tab-separated "multiple devices" upload file.
public enum DeviceListTSV {
    /// The exact header Apple's upload expects.
    public static let header = "Device ID\tDevice Name\tDevice Platform"

    /// Parses the file, collecting every problem instead of stopping at the first.
    public static func parse(_ text: String) throws(DeviceListError) -> [DeviceListEntry] {
        var entries: [DeviceListEntry] = []
        var problems: [DeviceListProblem] = []
        var seen: [DeviceIdentifier: Int] = [:]
        var sawContent = false
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // "\r\n" is a single Character in Swift, so split on newline characters, not on "\n".
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine
            let stripped = line.drop { $0 == " " || $0 == "\t" }
            if stripped.isEmpty || stripped.hasPrefix("#") { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(trimSpaces)
            if !sawContent {
                sawContent = true
                if isHeader(columns) { continue }
                if columns.count == 1, isHeader(line.split(separator: " ").map(String.init).joinedWords()) {
                    problems.append(DeviceListProblem(location: number, message: "the header is separated by spaces; Apple's format needs tabs: \"Device ID<TAB>Device Name<TAB>Device Platform\""))
                    continue
                }
            }
            if columns.count == 1 {
                let words = line.split(whereSeparator: { $0 == " " })
                if words.count > 1, (try? DeviceIdentifier(String(words[0]))) != nil {
                    problems.append(DeviceListProblem(location: number, message: "columns are separated by spaces; Apple's format needs a tab between the UDID, the name and the platform"))
                } else if words.count > 1 {
                    problems.append(DeviceListProblem(location: number, message: "columns are separated by spaces, not tabs, and \"\(words[0])\" is not a UDID; put a tab between the UDID, the name and the platform"))
                } else {
                    problems.append(DeviceListProblem(location: number, message: "the device \"\(columns[0])\" has no name; add a tab and a device name after the UDID"))
                }
                continue
            }
            guard columns.count <= 3 else {
                problems.append(DeviceListProblem(location: number, message: "has \(columns.count) tab-separated columns but Apple's format has at most 3 (Device ID, Device Name, Device Platform)"))
                continue
            }
            let identifier: DeviceIdentifier
            do { identifier = try DeviceIdentifier(columns[0]) } catch {
                problems.append(DeviceListProblem(location: number, message: error.description))
                continue
            }
            let name = columns[1]
            guard !name.isEmpty else {
                problems.append(DeviceListProblem(location: number, message: "device \(identifier) has an empty name; Apple requires one"))
                continue
            }
            var platform: DevicePlatform?
            if columns.count == 3 && !columns[2].isEmpty {
                guard let parsed = DevicePlatform(rawValue: columns[2].lowercased()) else {
                    problems.append(DeviceListProblem(location: number, message: "platform \"\(columns[2])\" is not ios or mac"))
                    continue
                }
                platform = parsed
            }
            if let first = seen[identifier] {
                problems.append(DeviceListProblem(location: number, message: "device \(identifier) is already listed on line \(first); remove one of the two lines"))
                continue
            }
            seen[identifier] = number
            entries.append(DeviceListEntry(location: number, identifier: identifier, name: name, platform: platform))
        }
        guard problems.isEmpty else { throw DeviceListError(problems: problems) }
        return entries
    }

    private static func trimSpaces(_ text: Substring) -> String {
        guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " }) else { return "" }
        return String(text[first ... last])
    }

    private static func isHeader(_ columns: [String]) -> Bool {
        let lower = columns.map { $0.lowercased() }
        return lower == ["device id", "device name", "device platform"] || lower == ["device id", "device name"]
    }

    /// Writes the file with Apple's exact header and `\n` line ends.
    public static func write(_ devices: [(identifier: DeviceIdentifier, name: String, platform: DevicePlatform)]) -> String {
        var out = header + "\n"
        for device in devices {
            out += "\(device.identifier.value)\t\(sanitise(device.name))\t\(device.platform.rawValue)\n"
        }
        return out
    }

    // Tabs or newlines inside a name would break the file's columns.
    static func sanitise(_ name: String) -> String {
        String(name.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

private extension Array where Element == String {
    /// Rebuilds header words into the three column titles when they were space-separated.
    func joinedWords() -> [String] {
        let lower = map { $0.lowercased() }
        if lower == ["device", "id", "device", "name", "device", "platform"] { return ["Device ID", "Device Name", "Device Platform"] }
        if lower == ["device", "id", "device", "name"] { return ["Device ID", "Device Name"] }
        return self
    }
}
