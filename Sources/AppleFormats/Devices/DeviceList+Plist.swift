#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads and writes the `.deviceids` property list that Apple's portal also accepts.
public enum DeviceListPlist {
    struct File: Codable {
        var devices: [Device]
        enum CodingKeys: String, CodingKey { case devices = "Device UDIDs" }
    }

    struct Device: Codable {
        var deviceIdentifier: String?
        var deviceName: String?
        var devicePlatform: String?
    }

    /// Whether `bytes` look like a property list rather than tab-separated text.
    public static func looksLikePlist(_ bytes: some Collection<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        return head.hasPrefix("bplist") || head.hasPrefix("<?xml") || head.hasPrefix("<plist") || head.hasPrefix("<!DOCTYPE plist")
    }

    /// Parses the plist, collecting every problem instead of stopping at the first.
    public static func parse(_ data: Data) throws(DeviceListError) -> [DeviceListEntry] {
        let file: File
        do {
            file = try PropertyListDecoder().decode(File.self, from: data)
        } catch {
            throw DeviceListError(problems: [DeviceListProblem(location: nil, message: "the property list cannot be read or has no \"Device UDIDs\" array of dictionaries (\(error)); export it again from the developer portal or betactl")])
        }
        var entries: [DeviceListEntry] = []
        var problems: [DeviceListProblem] = []
        var seen: [DeviceIdentifier: Int] = [:]
        for (index, device) in file.devices.enumerated() {
            let number = index + 1
            func problem(_ message: String) { problems.append(DeviceListProblem(location: number, isPlistEntry: true, message: message)) }
            guard let rawID = device.deviceIdentifier else { problem("has no deviceIdentifier"); continue }
            let identifier: DeviceIdentifier
            do { identifier = try DeviceIdentifier(rawID) } catch { problem(error.description); continue }
            guard let name = device.deviceName, !name.isEmpty else { problem("device \(identifier) has no deviceName; Apple requires one"); continue }
            var platform: DevicePlatform?
            if let raw = device.devicePlatform, !raw.isEmpty {
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

    /// Writes an XML property list.
    public static func write(_ devices: [(identifier: DeviceIdentifier, name: String, platform: DevicePlatform)]) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        return try encoder.encode(File(devices: devices.map {
            Device(deviceIdentifier: $0.identifier.value, deviceName: $0.name, devicePlatform: $0.platform.rawValue)
        }))
    }
}
