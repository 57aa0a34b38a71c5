#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a file's bytes say it is.
public struct FileRecognition: Sendable, Equatable {
    /// The kind, or nil when betactl does not know the file.
    public var kind: AppleFileKind?
    /// For a known kind, how it was told (e.g. "a CMS envelope (BER) around a provisioning profile");
    /// for an unknown file, what its first bytes look like.
    public var evidence: String

    /// Creates a recognition.
    public init(kind: AppleFileKind?, evidence: String) {
        self.kind = kind
        self.evidence = evidence
    }
}

/// Tells what an Apple-related file is from its bytes alone, never from its name: magic numbers
/// first, then a look inside containers (the plist in a CMS envelope, the names in a zip, the
/// header line of an `.ips`, the keys of a JSON object, the root element of XML).
///
/// Damaged files are still recognised when enough is left to tell (a truncated profile whose
/// plist survives, a JSON report cut short): the parser for the kind then says what is damaged.
/// Recognition never throws, traps or loops on any input.
public enum FileRecognizer {
    // Text formats announce themselves early; looking further only costs time on large files.
    static let textWindow = 64 << 10

    /// Recognises `bytes`, the whole file.
    public static func recognize(_ bytes: [UInt8]) -> FileRecognition {
        guard !bytes.isEmpty else { return FileRecognition(kind: nil, evidence: "an empty file") }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return zip(bytes) }
        let machO = bytes.withUnsafeBytes { raw in MachOFile.looksLikeMachO(raw) ? machOKind(raw) : nil }
        if let machO { return machO }
        if bytes.starts(with: BinaryPlistReader.magicPrefix) { return plist(bytes, evidence: "a binary property list") }
        if let plcrash = PLCrashReporterFile(bytes: bytes) {
            return FileRecognition(kind: .plcrash, evidence: "a PLCrashReporter report (format version \(plcrash.formatVersion))")
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return FileRecognition(kind: .png, evidence: PNGImage.isCgBI(bytes) ? "a CgBI (Apple-crushed) PNG" : "a PNG image")
        }
        if CMSSignedPlist.looksLikeSignedData(bytes) { return cms(bytes) }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, bytes[start].isXMLWhitespace { start += 1 }
        if start < bytes.count {
            if bytes[start] == UInt8(ascii: "{") { return json(bytes) }
            if bytes[start] == UInt8(ascii: "<") { return xml(bytes, from: start) }
        }
        let text = bytes.prefix(textWindow)
        if looksLikeCrashText(text) { return FileRecognition(kind: .crashReport, evidence: "an Apple text crash report") }
        if looksLikeDeviceTSV(text) { return FileRecognition(kind: .deviceList, evidence: "Apple's tab-separated device list") }
        return FileRecognition(kind: nil, evidence: describeFirstBytes(bytes))
    }

    // MARK: Containers

    static func zip(_ bytes: [UInt8]) -> FileRecognition {
        let names: [String]
        do {
            names = try ZipArchive(source: ZipMemorySource(bytes)).entries.map(\.name)
        } catch {
            // The central directory is at the end, so a cut-short archive loses it; the first
            // local header still names the first entry.
            if let first = firstLocalEntryName(bytes), let kind = zipKind([first]) {
                return FileRecognition(kind: kind, evidence: "a damaged zip archive whose first entry is \(first)")
            }
            return FileRecognition(kind: nil, evidence: "a damaged zip archive (\(error))")
        }
        if let kind = zipKind(names) { return FileRecognition(kind: kind, evidence: "a zip archive holding \(zipDescription(kind))") }
        let shown = names.prefix(3).joined(separator: ", ")
        return FileRecognition(kind: nil, evidence: "a zip archive that holds no Payload/<Name>.app, .xcarchive, .app or .dSYM (its entries start with \(shown.isEmpty ? "nothing" : shown))")
    }

    static func zipDescription(_ kind: AppleFileKind) -> String {
        switch kind {
        case .ipa: "Payload/ (an .ipa)"
        case .xcarchive: "an .xcarchive"
        case .app: "an .app bundle"
        default: "dSYM bundles"
        }
    }

    /// The kind a zip's entry names point to, using the layouts `ArtifactIngestor` reads.
    public static func zipKind(_ names: [String]) -> AppleFileKind? {
        var kind: AppleFileKind?
        for name in names {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            if let payload = parts.firstIndex(of: "Payload"), payload <= 1, parts.count > payload + 1 { return .ipa }
            if let products = parts.firstIndex(of: "Products"), products <= 1, parts.count > products + 2,
               parts[products + 1] == "Applications" {
                kind = .xcarchive
            } else if kind == nil, name.contains(".dSYM/Contents/Resources/DWARF/") {
                kind = .dsym
            } else if kind == nil, parts.count == 2, parts[0].hasSuffix(".app"), parts[1] == "Info.plist" {
                kind = .app
            }
        }
        return kind
    }

    static func firstLocalEntryName(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 30, bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return nil }
        let length = Int(bytes[26]) | Int(bytes[27]) << 8
        guard length > 0, 30 + length <= bytes.count else { return nil }
        return String(validating: bytes[30 ..< 30 + length], as: UTF8.self)
    }

    static func machOKind(_ raw: UnsafeRawBufferPointer) -> FileRecognition? {
        let file: MachOFile
        do { file = try MachOFile(bytes: raw) } catch {
            // A fat header with dozens of "architectures" is a Java class file (same magic).
            var reader = ByteReader(raw)
            if (try? reader.u32be()) == 0xcafe_babe, let count = try? reader.u32be(), count >= 30 { return nil }
            return FileRecognition(kind: .macho, evidence: "a damaged Mach-O file (\(error))")
        }
        guard let first = file.slices.first else { return nil }
        var reader = ByteReader(raw)
        reader.offset = first.offset + 12
        let fileType = (try? reader.u32le()) ?? 0
        let architectures = file.slices.map(\.architecture.name).joined(separator: ", ")
        if fileType == 10 {
            return FileRecognition(kind: .dsym, evidence: "a dSYM DWARF file (\(architectures))")
        }
        return FileRecognition(kind: .macho, evidence: "a \(file.isFat ? "fat " : "")Mach-O file (\(architectures))")
    }

    static func cms(_ bytes: [UInt8]) -> FileRecognition {
        let encoding = bytes.count > 1 && bytes[1] == 0x80 ? "BER" : "DER"
        do {
            let signed = try CMSSignedPlist(bytes: bytes)
            if let kind = signedPlistKind(signed.plist) {
                return FileRecognition(kind: kind, evidence: "a CMS envelope (\(encoding)) around \(describe(kind))")
            }
            let keys = signed.plist.dictionary.map { $0.keys.sorted().prefix(6).joined(separator: ", ") } ?? signed.plist.kindDescription
            return FileRecognition(kind: nil, evidence: "a CMS envelope around a property list that is no profile or enrolment reply (it has \(keys))")
        } catch {
            if let recovered = ProvisioningProfile.recoverPlist(from: bytes), let value = try? PlistValue(parsing: recovered.plist),
               let kind = signedPlistKind(value) {
                return FileRecognition(kind: kind, evidence: "a damaged CMS envelope around \(describe(kind))")
            }
            if let kind = markerKind(bytes) {
                return FileRecognition(kind: kind, evidence: "a damaged CMS envelope around what looks like \(describe(kind))")
            }
            return FileRecognition(kind: nil, evidence: "a CMS signed envelope whose content cannot be read (\(error))")
        }
    }

    static func describe(_ kind: AppleFileKind) -> String {
        switch kind {
        case .provisioningProfile: "a provisioning profile"
        case .mobileconfig: "a configuration profile"
        case .deviceEnrollmentReply: "a device's enrolment reply"
        default: kind.rawValue
        }
    }

    /// The kind of a signed plist, from its keys.
    static func signedPlistKind(_ value: PlistValue) -> AppleFileKind? {
        guard let entries = value.dictionary else { return nil }
        if entries["ProvisionedDevices"] != nil || entries["DeveloperCertificates"] != nil
            || (entries["TeamIdentifier"] != nil && entries["ExpirationDate"] != nil) { return .provisioningProfile }
        if entries["PayloadType"] != nil || entries["PayloadContent"] != nil { return .mobileconfig }
        if entries["UDID"] != nil { return .deviceEnrollmentReply }
        return nil
    }

    /// The kind named by plist keys found in damaged bytes.
    static func markerKind(_ bytes: [UInt8]) -> AppleFileKind? {
        let markers: [(String, AppleFileKind)] = [
            ("<key>ProvisionedDevices</key>", .provisioningProfile), ("<key>DeveloperCertificates</key>", .provisioningProfile),
            ("<key>TeamIdentifier</key>", .provisioningProfile), ("<key>PayloadType</key>", .mobileconfig),
            ("<key>UDID</key>", .deviceEnrollmentReply),
        ]
        for (marker, kind) in markers where contains(bytes, marker) { return kind }
        return nil
    }

    static func plist(_ bytes: [UInt8], evidence: String) -> FileRecognition {
        guard let value = try? PlistValue(parsing: bytes) else {
            return FileRecognition(kind: .plist, evidence: evidence + " that cannot be parsed")
        }
        if let entries = value.dictionary {
            if entries["Device UDIDs"] != nil { return FileRecognition(kind: .deviceList, evidence: "Apple's .deviceids device list") }
            if entries["PayloadType"] != nil && entries["PayloadContent"] != nil {
                return FileRecognition(kind: .mobileconfig, evidence: "an unsigned configuration profile")
            }
        }
        return FileRecognition(kind: .plist, evidence: evidence)
    }

    // MARK: Text

    static func json(_ bytes: [UInt8]) -> FileRecognition {
        if let (header, bodyStart) = IPSReportHeader.split(bytes) {
            let kind: AppleFileKind = IPSBugType.crashes.contains(header.bugType) ? .crashReport
                : header.bugType == IPSBugType.jetsam ? .jetsamReport : .diagnosticReport
            let name = IPSBugType.name(for: header.bugType).map { " (\($0))" } ?? ""
            let body = bodyStart < bytes.count ? "" : " with no body"
            return FileRecognition(kind: kind, evidence: "an .ips report, bug_type \(header.bugType)\(name)\(body)")
        }
        if let (_, end) = IPSReportHeader.firstJSONObject(in: bytes), !bytes[end...].allSatisfy(\.isXMLWhitespace) {
            // A header line without bug_type, then a body: the shape of older .ips crash reports.
            return FileRecognition(kind: .crashReport, evidence: "a JSON header line and a crash report body")
        }
        if (try? JSONNesting.check(bytes)) != nil, let keys = try? JSONDecoder().decode(TopLevelKeys.self, from: Data(bytes)) {
            let set = Set(keys.names)
            if set.contains("report") && (set.contains("crash") || set.contains("binary_images") || set.contains("system")) {
                return FileRecognition(kind: .kscrashReport, evidence: "a KSCrash JSON report")
            }
            if set.contains("largestProcess") || (set.contains("processes") && set.contains("memoryStatus")) {
                return FileRecognition(kind: .jetsamReport, evidence: "the body of a jetsam report")
            }
            if set.contains("usedImages") || (set.contains("threads") && set.contains("procName")) {
                return FileRecognition(kind: .crashReport, evidence: "the JSON body of an .ips crash report")
            }
            return FileRecognition(kind: nil, evidence: "a JSON object that is no report betactl knows (its keys are \(keys.names.prefix(8).joined(separator: ", ")))")
        }
        // Not valid JSON: a report cut short still names itself in its first keys.
        let head = Array(bytes.prefix(textWindow))
        if contains(head, "\"binary_images\"") || (contains(head, "\"report\"") && contains(head, "\"crash\"")) {
            return FileRecognition(kind: .kscrashReport, evidence: "a damaged KSCrash JSON report")
        }
        if contains(head, "\"largestProcess\"") { return FileRecognition(kind: .jetsamReport, evidence: "a damaged jetsam report") }
        if contains(head, "\"usedImages\"") || contains(head, "\"procName\"") {
            return FileRecognition(kind: .crashReport, evidence: "a damaged .ips crash report")
        }
        return FileRecognition(kind: nil, evidence: describeFirstBytes(bytes) + ", which is not valid JSON")
    }

    static func xml(_ bytes: [UInt8], from start: Int) -> FileRecognition {
        guard let root = rootElementName(bytes, from: start) else {
            return FileRecognition(kind: nil, evidence: describeFirstBytes(bytes))
        }
        switch root {
        case "plist", "dict": return plist(bytes, evidence: "an XML property list")
        case "crashes": return FileRecognition(kind: .hockeyAppCrashXML, evidence: "a HockeySDK crash upload")
        default: return FileRecognition(kind: nil, evidence: "an XML document whose root element is <\(root)>")
        }
    }

    /// The name of the first element after the XML declaration, comments and the DOCTYPE.
    static func rootElementName(_ bytes: [UInt8], from start: Int) -> String? {
        var position = start
        let limit = min(bytes.count, textWindow)
        while position < limit {
            while position < limit, bytes[position].isXMLWhitespace { position += 1 }
            guard position + 1 < limit, bytes[position] == UInt8(ascii: "<") else { return nil }
            let next = bytes[position + 1]
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
                // Skip to the end of the declaration, comment or DOCTYPE (an internal subset may hold '>').
                let closing: [UInt8] = bytes[position...].starts(with: Array("<!--".utf8)) ? Array("-->".utf8) : [UInt8(ascii: ">")]
                var depth = 0
                var index = position + 2
                while index < limit {
                    if closing.count == 1 {
                        if bytes[index] == UInt8(ascii: "[") { depth += 1 }
                        if bytes[index] == UInt8(ascii: "]") { depth -= 1 }
                        if depth <= 0, bytes[index] == UInt8(ascii: ">") { break }
                    } else if bytes[index...].starts(with: closing) {
                        index += closing.count - 1
                        break
                    }
                    index += 1
                }
                position = index + 1
                continue
            }
            var end = position + 1
            while end < limit, bytes[end].isXMLNameByte { end += 1 }
            guard end > position + 1 else { return nil }
            return String(decoding: bytes[position + 1 ..< end], as: UTF8.self)
        }
        return nil
    }

    /// Fields a text crash report (or a partial one pasted from it) starts with.
    static let crashReportOpenings = ["Incident Identifier:", "CrashReporter Key:", "Hardware Model:", "Process:", "Path:", "Identifier:",
                                      "Date/Time:", "OS Version:", "Exception Type:", "Thread 0"]

    static func looksLikeCrashText(_ text: ArraySlice<UInt8>) -> Bool {
        // The report's own first line, so that a script or document quoting a report is not one.
        let body = text.drop { $0.isXMLWhitespace || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        guard crashReportOpenings.contains(where: { body.starts(with: Array($0.utf8)) }) else { return false }
        // A partial report pasted into an issue may keep only its threads and binary images.
        let markers = ["Incident Identifier:", "Exception Type:", "Binary Images:", "Crashed Thread:", "Triggered by Thread:", "\nThread 0"]
        var found = 0
        for marker in markers where contains(text, marker) { found += 1 }
        if body.starts(with: Array("Thread 0".utf8)) { found += 1 }
        return found >= 2 || (found == 1 && contains(text, "Hardware Model:"))
    }

    static func looksLikeDeviceTSV(_ text: ArraySlice<UInt8>) -> Bool {
        for line in text.split(separator: 0x0A).prefix(20) {
            let trimmed = line.drop { $0.isXMLWhitespace }
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            if trimmed.starts(with: Array("Device ID".utf8)) { return true }
            guard let tab = trimmed.firstIndex(of: 0x09) else { return false }
            return (try? DeviceIdentifier(String(decoding: trimmed[..<tab], as: UTF8.self))) != nil
        }
        return false
    }

    static func contains(_ haystack: some Collection<UInt8>, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        let bytes = Array(haystack)
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, bytes[index ..< index + pattern.count].elementsEqual(pattern) { return true }
            index += 1
        }
        return false
    }
}
