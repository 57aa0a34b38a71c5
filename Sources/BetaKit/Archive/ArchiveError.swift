import AppleFormats

/// Why an archive operation was refused.
public enum ArchiveError: Error, Sendable, CustomStringConvertible, CategorizedError {
    /// No profile matches the reference.
    case unknownProfile(String, known: [String])
    /// Several profiles match a name.
    case ambiguousProfile(String, matches: [String])
    /// No release has the id.
    case unknownRelease(String)
    /// The release is already revoked.
    case alreadyRevoked(id: Int64, on: String)
    /// validation refused the build.
    case refused(ReleaseValidation)
    /// The input held no dSYMs.
    case noSymbols(String)
    /// A stored blob is missing from disk.
    case missingBlob(String)
    /// The same package (by SHA-256) was already released; `--again` publishes it anyway.
    case alreadyReleased(Release)

    /// A sentence naming the values and the fix.
    public var description: String {
        switch self {
        case let .unknownProfile(reference, known):
            let hint = known.isEmpty ? "import one with `betactl import-profile FILE`" : "known profiles: \(known.joined(separator: ", "))"
            return "no imported profile matches \"\(reference)\"; \(hint)"
        case let .ambiguousProfile(reference, matches):
            return "\"\(reference)\" matches \(matches.count) profiles (\(matches.joined(separator: ", "))); pass the UUID instead"
        case let .unknownRelease(id):
            return "there is no release \(id); list them with `betactl releases`"
        case let .alreadyRevoked(id, date):
            return "release \(id) was already revoked on \(date)"
        case let .refused(validation):
            let reasons = validation.refusals.map { "  - \($0)" }.joined(separator: "\n")
            return "the build cannot be released (\(validation.refusals.count) problem\(validation.refusals.count == 1 ? "" : "s")):\n\(reasons)"
        case let .noSymbols(path):
            return "\(path) contains no dSYM (no .dSYM/Contents/Resources/DWARF file); pass a .dSYM, a zipped .dSYM or an .xcarchive"
        case let .missingBlob(hex):
            return "the archive file \(hex) is missing from blobs/; restore the home from a backup"
        case let .alreadyReleased(earlier):
            let name = "\(earlier.displayName ?? earlier.bundleID) \(earlier.version ?? "?") (\(earlier.build ?? "?"))"
            let revoked = earlier.revokedAt.map { ", revoked on \(CalendarDate($0))" } ?? ""
            return "\(name) was already released as release \(earlier.id) on \(CalendarDate(earlier.createdAt))\(revoked): "
                + "its package has the same SHA-256 (\(earlier.packageBlob.hex.prefix(12))…); pass --again to publish it again as a new release"
        }
    }

    /// Unknown references and refusals are refusals; a missing blob is a failure.
    public var category: ErrorCategory {
        if case .missingBlob = self { return .failed }
        return .refused
    }
}
