#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The XML body a HockeySDK (or QuincyKit) client posts for crashes:
/// `<crashes><crash>…<uuids><uuid type="app" arch="arm64">…</uuid></uuids>…<log><![CDATA[…]]></log>…</crash></crashes>`.
///
/// The log inside is an Apple-style text crash report (PLCrashReporter's rendering), which
/// `Crash.report()` reads with `CrashReport`.
public struct HockeyAppCrashUpload: Sendable, Equatable {
    /// The crashes in the document, in order (clients send one at a time).
    public var crashes: [Crash]

    /// One `<crash>` element.
    public struct Crash: Sendable, Equatable {
        /// `applicationname`: the executable's name.
        public var applicationName: String?
        /// `bundleidentifier`.
        public var bundleIdentifier: String?
        /// `systemversion`: the OS version, such as "17.4.1".
        public var systemVersion: String?
        /// `platform`: the model code, such as "iPhone14,5".
        public var platform: String?
        /// `senderversion`: the SDK's version of the app.
        public var senderVersion: String?
        /// `versionstring`: the marketing version (`CFBundleShortVersionString`).
        public var versionString: String?
        /// `version`: the build number (`CFBundleVersion`).
        public var version: String?
        /// `uuid`: the crash's own identifier.
        public var crashID: String?
        /// The app's binary images from `<uuids>`.
        public var binaryUUIDs: [BinaryUUID]
        /// `log`: the crash report text.
        public var log: String
        /// `userid`, `username`, `contact` as given (often empty).
        public var userID: String?
        /// The user's name, if the app sent it.
        public var userName: String?
        /// The user's contact (e-mail), if the app sent it.
        public var contact: String?
        /// `installstring`: the SDK's install identifier.
        public var installString: String?
        /// `description`: what the user typed, plus the app's own log.
        public var userDescription: String?

        /// The log read as a crash report.
        public func report() throws(CrashReportError) -> CrashReport {
            try CrashReport(text: log)
        }
    }

    /// One `<uuid type="app|framework" arch="arm64">hex</uuid>`.
    public struct BinaryUUID: Sendable, Equatable {
        /// `type`: `app` or `framework`.
        public var type: String?
        /// `arch`, such as `arm64`.
        public var architecture: String?
        /// The UUID (PLCrashReporter writes 32 hex digits without dashes).
        public var uuid: UUID
    }

    /// Uploads are a crash report and a few fields; this bounds hostile posts.
    public static let maxSize = 16 << 20
    // One upload holds one crash; a handful is plenty.
    static let maxCrashes = 100

    /// Reads an upload body.
    public init(bytes: [UInt8]) throws(HockeyAppCrashUploadError) {
        guard bytes.count <= Self.maxSize else { throw HockeyAppCrashUploadError.tooLarge(size: bytes.count, limit: Self.maxSize) }
        let root: XMLTreeElement
        do { root = try XMLTreeReader.parse(bytes) } catch { throw HockeyAppCrashUploadError.notWellFormed(error.description) }
        guard root.name == "crashes" else { throw HockeyAppCrashUploadError.wrongRoot(root.name) }
        let elements = root.children.filter { $0.name == "crash" }
        guard !elements.isEmpty else { throw HockeyAppCrashUploadError.noCrash }
        guard elements.count <= Self.maxCrashes else { throw HockeyAppCrashUploadError.tooManyCrashes(elements.count, Self.maxCrashes) }
        var crashes: [Crash] = []
        for (index, element) in elements.enumerated() {
            guard let log = element.childText("log"), !log.allSatisfy(\.isWhitespace) else {
                throw HockeyAppCrashUploadError.missing("log", crash: index + 1)
            }
            var uuids: [BinaryUUID] = []
            for item in element.child("uuids")?.children ?? [] where item.name == "uuid" {
                let text = item.text.filter { !$0.isWhitespace }
                guard let uuid = Self.uuid(text) else { throw HockeyAppCrashUploadError.invalidUUID(text, crash: index + 1) }
                uuids.append(BinaryUUID(type: item.attributes["type"], architecture: item.attributes["arch"], uuid: uuid))
            }
            func field(_ name: String) -> String? {
                guard let text = element.childText(name) else { return nil }
                let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
                return trimmed.isEmpty ? nil : String(trimmed)
            }
            crashes.append(Crash(applicationName: field("applicationname"), bundleIdentifier: field("bundleidentifier"),
                                 systemVersion: field("systemversion"), platform: field("platform"), senderVersion: field("senderversion"),
                                 versionString: field("versionstring"), version: field("version"), crashID: field("uuid"),
                                 binaryUUIDs: uuids, log: log, userID: field("userid"), userName: field("username"),
                                 contact: field("contact"), installString: field("installstring"), userDescription: field("description")))
        }
        self.crashes = crashes
    }

    /// A UUID written with or without dashes, in either case.
    static func uuid(_ text: String) -> UUID? {
        if let direct = UUID(uuidString: text) { return direct }
        let hex = Array(text.utf8)
        guard hex.count == 32, hex.allSatisfy({ $0.hexDigitValue != nil }) else { return nil }
        let s = String(decoding: hex, as: UTF8.self)
        let dashed = "\(s.prefix(8))-\(s.dropFirst(8).prefix(4))-\(s.dropFirst(12).prefix(4))-\(s.dropFirst(16).prefix(4))-\(s.dropFirst(20))"
        return UUID(uuidString: dashed)
    }
}
