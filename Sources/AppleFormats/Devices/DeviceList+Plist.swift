#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads and writes the `.deviceids` property list that Apple's portal also accepts.
///
/// Goes through our own strict plist reader and writer, like every other property list here.
public enum DeviceListPlist {
    static let devicesKey = "Device UDIDs"

    /// Whether `bytes` look like a property list rather than tab-separated text.
    public static func looksLikePlist(_ bytes: some Collection<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        return head.utf8.starts(with: BinaryPlistReader.magicPrefix) || head.hasPrefix("<?xml") || head.hasPrefix("<plist")
            || head.hasPrefix("<!DOCTYPE plist")
    }

    /// Parses the plist, collecting every problem instead of stopping at the first.
    public static func parse(_ data: Data) throws(DeviceListError) -> [DeviceListEntry] {
        let devices = try deviceArray(data)
        var entries: [DeviceListEntry] = []
        var problems: [DeviceListProblem] = []
        var seen: [DeviceIdentifier: Int] = [:]
        for (index, device) in devices.enumerated() {
            let number = index + 1
            func problem(_ message: String) { problems.append(DeviceListProblem(location: number, isPlistEntry: true, message: message)) }
            guard let fields = device.dictionary else {
                problem("is \(device.kindDescription), not a dictionary with deviceIdentifier, deviceName and devicePlatform strings")
                continue
            }
            // A key that is present must hold a string: anything else is a damaged or hand-edited file.
            func string(_ key: String) -> (value: String?, wrongKind: Bool) {
                guard let value = fields[key] else { return (nil, false) }
                guard let text = value.string else {
                    problem("\(key) is \(value.kindDescription), not a string")
                    return (nil, true)
                }
                return (text, false)
            }
            let rawID = string("deviceIdentifier"), rawName = string("deviceName"), rawPlatform = string("devicePlatform")
            guard !rawID.wrongKind, !rawName.wrongKind, !rawPlatform.wrongKind else { continue }
            guard let id = rawID.value else { problem("has no deviceIdentifier"); continue }
            let identifier: DeviceIdentifier
            do { identifier = try DeviceIdentifier(id) } catch { problem(error.description); continue }
            guard let name = rawName.value, !name.isEmpty else { problem("device \(identifier) has no deviceName; Apple requires one"); continue }
            var platform: DevicePlatform?
            if let raw = rawPlatform.value, !raw.isEmpty {
                guard let parsed = DevicePlatform(rawValue: raw.lowercased()) else { problem("devicePlatform \"\(raw)\" is not ios or mac"); continue }
                platform = parsed
            }
            if let first = seen[identifier] { problem("device \(identifier) is already listed as entry \(first)"); continue }
            seen[identifier] = number
            entries.append(DeviceListEntry(location: number, identifier: identifier, name: name, platform: platform))
        }
        guard problems.isEmpty else { throw DeviceListError(problems: problems) }
        return entries
    }

    /// The elements of the file's "Device UDIDs" array, or a whole-file problem saying what stands in its place.
    static func deviceArray(_ data: Data) throws(DeviceListError) -> [PlistValue] {
        func fileProblem(_ what: String) -> DeviceListError {
            DeviceListError(problems: [DeviceListProblem(location: nil, message: "\(what); export it again from the developer portal or betactl")])
        }
        let root: PlistValue
        do { root = try PlistValue(parsing: Array(data)) } catch {
            throw fileProblem(error.reason)
        }
        guard let top = root.dictionary else {
            throw fileProblem("the property list holds \(root.kindDescription), not a dictionary with a \"\(devicesKey)\" array")
        }
        guard let list = top[devicesKey] else { throw fileProblem("the property list has no \"\(devicesKey)\" array") }
        guard let devices = list.array else {
            throw fileProblem("\"\(devicesKey)\" in the property list is \(list.kindDescription), not an array of dictionaries")
        }
        return devices
    }

    /// Writes an XML property list.
    public static func write(_ devices: [(identifier: DeviceIdentifier, name: String, platform: DevicePlatform)]) throws(PlistError) -> Data {
        let list = PlistValue.dictionary([devicesKey: .array(devices.map {
            .dictionary([
                "deviceIdentifier": .string($0.identifier.value),
                "deviceName": .string($0.name),
                "devicePlatform": .string($0.platform.rawValue),
            ])
        })])
        return Data(try list.xmlBytes())
    }
}
