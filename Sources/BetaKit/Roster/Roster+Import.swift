#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// An import that was refused as a whole, with every problem by line.
public struct DeviceImportError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// The file that was being imported, for the message.
    public var file: String
    /// Every problem, in file order.
    public var problems: [DeviceListProblem]
    /// Whether any problem is about the file's content rather than a roster rule.
    public var hasFormatProblems: Bool

    /// Creates the error.
    public init(file: String, problems: [DeviceListProblem], hasFormatProblems: Bool) {
        self.file = file
        self.problems = problems
        self.hasFormatProblems = hasFormatProblems
    }

    /// A summary line followed by one line per problem.
    public var description: String {
        let count = problems.count
        return "nothing was imported from \(file): \(count) problem\(count == 1 ? "" : "s") found; fix \(count == 1 ? "it" : "them") and import again\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }

    /// Malformed lines make the whole error invalid input; limit problems alone are a refusal.
    public var category: ErrorCategory { hasFormatProblems ? .invalidInput : .refused }
}

extension Roster {
    /// What an import did.
    public struct DeviceImportReport: Sendable, Equatable {
        /// Devices newly registered (or re-activated).
        public var added: [Device]
        /// Devices in the file that were already registered and were left alone.
        public var alreadyRegistered: [DeviceIdentifier]
        /// Devices whose family the file did not give and that were counted in the default family.
        public var assumedFamily: [DeviceIdentifier]
        /// The family used for those.
        public var defaultFamily: DeviceFamily
    }

    /// Imports devices all or nothing: if any entry cannot be registered, nothing is.
    ///
    /// Apple's files say only `ios` or `mac`, so an `ios` device's family comes from
    /// its name ("Ann's iPad") or else `defaultFamily`, and the report says which were assumed.
    public func importDevices(_ entries: [DeviceListEntry], format: DeviceListFormat, file: String, tester reference: String?, defaultFamily: DeviceFamily = .iphone, now: Date) throws -> DeviceImportReport {
        let settings = home.settings
        return try store.write { db in
            let owner = try reference.map { try Self.resolveTester($0, db: db) }
            var report = DeviceImportReport(added: [], alreadyRegistered: [], assumedFamily: [], defaultFamily: defaultFamily)
            var problems: [DeviceListProblem] = []
            var invalidInput = false
            for entry in entries {
                if let row = try db.queryOne("SELECT removed_at FROM devices WHERE udid = ?", [.text(entry.identifier.value)]),
                   row.string(0) == nil {
                    report.alreadyRegistered.append(entry.identifier)
                    continue
                }
                let family: DeviceFamily
                if entry.platform == .mac || entry.identifier.form == .uuid {
                    family = .mac
                } else if let named = DeviceFamily(inferringFromName: entry.name), named != .mac {
                    family = named
                } else {
                    family = defaultFamily
                    report.assumedFamily.append(entry.identifier)
                }
                do {
                    try Self.insertDevice(NewDevice(identifier: entry.identifier, name: entry.name, family: family),
                                          owner: owner, settings: settings, now: now, db: db)
                    if let row = try db.queryOne(Self.deviceSelect + " WHERE d.udid = ?", [.text(entry.identifier.value)]) {
                        report.added.append(try Self.device(from: row))
                    }
                } catch let error as RosterError {
                    invalidInput = invalidInput || error.category == .invalidInput
                    problems.append(DeviceListProblem(location: entry.location, isPlistEntry: format == .deviceids, message: error.description))
                }
            }
            if !problems.isEmpty {
                // A malformed value (a NUL in a name) is the file's problem; a full family is a refusal.
                throw DeviceImportError(file: file, problems: problems, hasFormatProblems: invalidInput)
            }
            return report
        }
    }
}
