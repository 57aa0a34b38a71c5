#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An `.ips` diagnostic report of any `bug_type`: its header, the name of its kind and a short
/// description of its body. Crash (109, 309) and jetsam (298) reports have their own models,
/// `CrashReport` and `JetsamReport`; this one serves the others (resource reports, stackshots,
/// panics, …), which betactl shows but does not interpret.
public struct DiagnosticReport: Sendable, Equatable {
    /// The header line.
    public var header: IPSReportHeader
    /// What follows it.
    public var body: Body
    /// The body's size in bytes.
    public var bodySize: Int

    /// The body of a report.
    public enum Body: Sendable, Equatable {
        /// Nothing follows the header.
        case empty
        /// A JSON object, with its top-level keys sorted.
        case json(keys: [String])
        /// Text, with its first line.
        case text(firstLine: String)
    }

    /// `bug_type`.
    public var bugType: String { header.bugType }
    /// The name of the bug type, such as "cpu_resource", when betactl knows it.
    public var bugTypeName: String? { IPSBugType.name(for: header.bugType) }

    /// Reports are at most a few megabytes; stackshots of a whole system reach tens.
    public static let maxSize = 64 << 20

    /// Reads an `.ips` file: a header line with `bug_type`, then a JSON or text body.
    public init(bytes: [UInt8]) throws(DiagnosticReportError) {
        guard bytes.count <= Self.maxSize else { throw DiagnosticReportError.tooLarge(size: bytes.count, limit: Self.maxSize) }
        guard let (header, bodyStart) = IPSReportHeader.split(bytes) else { throw DiagnosticReportError.noHeader }
        self.header = header
        bodySize = bytes.count - bodyStart
        guard bodyStart < bytes.count else {
            body = .empty
            return
        }
        if bytes[bodyStart] == UInt8(ascii: "{") {
            do {
                try JSONNesting.check(bytes[bodyStart...])
                let keys = try JSONDecoder().decode(TopLevelKeys.self, from: Data(bytes[bodyStart...]))
                body = .json(keys: keys.names)
            } catch {
                let detail = (error as? JSONNesting.TooDeep)?.description ?? KSCrashReport.describe(error)
                throw DiagnosticReportError.damagedBody(bugType: header.bugType, detail: detail)
            }
        } else {
            let line = bytes[bodyStart...].prefix { $0 != 0x0A && $0 != 0x0D }.prefix(200)
            body = .text(firstLine: String(decoding: line, as: UTF8.self))
        }
    }
}

/// Decodes a JSON object only far enough to list its keys.
struct TopLevelKeys: Decodable {
    var names: [String]

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).sorted()
    }
}
