#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ProvisioningProfile {
    static let dataContentType = "1.2.840.113549.1.7.1"

    /// Parses a `.mobileprovision` file: CMS SignedData (DER or BER) around a plist.
    public init(bytes: [UInt8]) throws(ProvisioningProfileError) {
        guard !bytes.isEmpty else { throw ProvisioningProfileError.empty }
        guard bytes[0] == 0x30 else {
            if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("bplist".utf8)) {
                throw ProvisioningProfileError.notSigned(reason: "the file is a bare property list without Apple's signature")
            }
            throw ProvisioningProfileError.notSigned(reason: "the file does not start with an ASN.1 SEQUENCE (first byte 0x\(String(bytes[0], radix: 16)))")
        }
        let envelope: CMSSignedData
        do {
            envelope = try CMSSignedData(bytes: bytes)
        } catch {
            let recovery = Self.recoverPlist(from: bytes)
            switch error {
            case let .truncated(offset, claimed, available):
                throw ProvisioningProfileError.truncated(
                    fileSize: bytes.count,
                    detail: "the element at byte \(offset) claims \(claimed) bytes but only \(available) remain", recovery: recovery)
            case .missingEndOfContents:
                throw ProvisioningProfileError.truncated(fileSize: bytes.count, detail: error.description, recovery: recovery)
            case .unexpected where recovery == nil && Self.findPlist(in: bytes) == nil:
                throw ProvisioningProfileError.notSigned(reason: error.description)
            default:
                throw ProvisioningProfileError.corrupt(detail: error.description, recovery: recovery)
            }
        }
        guard envelope.contentType == Self.dataContentType else {
            throw ProvisioningProfileError.notSigned(reason: "the CMS envelope holds content of type \(envelope.contentType), not data")
        }
        guard let content = envelope.content else { throw ProvisioningProfileError.noContent }
        let plistValue: PlistValue
        do {
            plistValue = try PlistValue(parsing: content)
        } catch {
            throw ProvisioningProfileError.unreadablePlist(error.description)
        }
        try self.init(plist: plistValue, bytes: content)
        usesBER = envelope.usesIndefiniteLengths
        signer = envelope.signer
    }

    /// Builds the model from an already parsed plist (the profile's content).
    public init(plist root: PlistValue, bytes: [UInt8]) throws(ProvisioningProfileError) {
        guard let entries = root.dictionary else {
            throw ProvisioningProfileError.wrongType(key: "top level", expected: "a dictionary", found: root.kindDescription)
        }
        func required<T>(_ key: String, _ expected: String, _ extract: (PlistValue) -> T?) throws(ProvisioningProfileError) -> T {
            guard let value = entries[key] else { throw ProvisioningProfileError.missingKey(key) }
            guard let typed = extract(value) else {
                throw ProvisioningProfileError.wrongType(key: key, expected: expected, found: value.kindDescription)
            }
            return typed
        }
        func optional<T>(_ key: String, _ expected: String, _ extract: (PlistValue) -> T?) throws(ProvisioningProfileError) -> T? {
            guard let value = entries[key] else { return nil }
            guard let typed = extract(value) else {
                throw ProvisioningProfileError.wrongType(key: key, expected: expected, found: value.kindDescription)
            }
            return typed
        }
        name = try required("Name", "a string", \.string)
        uuid = try required("UUID", "a string", \.string).lowercased()
        teamIdentifiers = try required("TeamIdentifier", "an array of strings", \.stringArray)
        guard !teamIdentifiers.isEmpty else { throw ProvisioningProfileError.missingKey("TeamIdentifier value") }
        creationDate = try required("CreationDate", "a date", \.date)
        expirationDate = try required("ExpirationDate", "a date", \.date)
        teamName = try optional("TeamName", "a string", \.string)
        appIDName = try optional("AppIDName", "a string", \.string)
        applicationIdentifierPrefixes = try optional("ApplicationIdentifierPrefix", "an array of strings", \.stringArray) ?? []
        platforms = try optional("Platform", "an array of strings", \.stringArray) ?? []
        provisionedDevices = try optional("ProvisionedDevices", "an array of strings", \.stringArray)
        provisionsAllDevices = try optional("ProvisionsAllDevices", "a boolean", \.bool) ?? false
        entitlements = try optional("Entitlements", "a dictionary", \.dictionary) ?? [:]
        isXcodeManaged = try optional("IsXcodeManaged", "a boolean", \.bool)
        timeToLive = try optional("TimeToLive", "an integer", \.integer).map { Int(clamping: $0) }
        version = try optional("Version", "an integer", \.integer).map { Int(clamping: $0) }
        let certificateData: [[UInt8]] = try optional("DeveloperCertificates", "an array of data", { (value: PlistValue) -> [[UInt8]]? in
            value.array.flatMap { items in
                let blobs = items.compactMap(\.data)
                return blobs.count == items.count ? blobs : nil
            }
        }) ?? []
        // A certificate that does not parse (fixtures sometimes redact them) is skipped, not fatal:
        // the profile is still usable and the certificate list is informational.
        developerCertificates = certificateData.compactMap { try? Certificate(der: $0) }
        distributionType = nil
        if let der = try optional("DER-Encoded-Profile", "data", \.data) {
            distributionType = Self.distributionType(fromDEREncodedProfile: der)
        }
        usesBER = false
        signer = nil
        plist = bytes
    }

    /// Reads ProfileDistributionType from the DER-Encoded-Profile (itself CMS around a DER dictionary).
    /// A malformed value is ignored: the XML keys remain authoritative for everything else.
    static func distributionType(fromDEREncodedProfile bytes: [UInt8]) -> String? {
        guard let envelope = try? CMSSignedData(bytes: bytes), let content = envelope.content,
              let decoded = try? PlistValue(derBytes: content) else { return nil }
        return decoded["ProfileDistributionType"]?.string
    }

    /// Finds an intact XML plist inside damaged bytes, for the "can be recovered" diagnosis.
    public static func recoverPlist(from bytes: [UInt8]) -> ProvisioningProfileError.Recovery? {
        guard let range = findPlist(in: bytes), let value = try? PlistValue(parsing: Array(bytes[range])),
              value.dictionary != nil else { return nil }
        return ProvisioningProfileError.Recovery(plist: Array(bytes[range]), name: value["Name"]?.string, uuid: value["UUID"]?.string)
    }

    static func findPlist(in bytes: [UInt8]) -> Range<Int>? {
        guard let start = firstIndex(of: Array("<?xml".utf8), in: bytes, from: 0) ?? firstIndex(of: Array("<plist".utf8), in: bytes, from: 0) else {
            return nil
        }
        let closing = Array("</plist>".utf8)
        guard let end = firstIndex(of: closing, in: bytes, from: start) else { return nil }
        return start ..< end + closing.count
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first && haystack[index ..< index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
