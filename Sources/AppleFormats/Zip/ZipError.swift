/// Why a zip archive (ipa, zipped xcarchive or dSYM) was refused.
public enum ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No end-of-central-directory record: not a zip file, or cut short.
    case notZip(String)
    /// A structure inside the archive is inconsistent.
    case malformed(String)
    /// An entry name would escape the extraction directory.
    case unsafeName(String, reason: String)
    /// The archive exceeds a safety limit (entry count, total size, compression ratio).
    case limitExceeded(String)
    /// An entry uses a feature betactl does not support (encryption, an unknown method).
    case unsupported(entry: String, String)
    /// The entry's data does not match its CRC-32 or declared size.
    case corruptEntry(entry: String, String)
    /// Reading the underlying file failed.
    case readFailed(String)
    /// The consumer of extracted bytes failed.
    case sinkFailed(String)

    /// A sentence naming the problem and what to do.
    public var description: String {
        switch self {
        case let .notZip(detail):
            return "not a zip archive: \(detail); an .ipa must be the zip file Xcode exports (check that the file was copied completely)"
        case let .malformed(detail):
            return "the zip archive is malformed: \(detail); export or zip it again"
        case let .unsafeName(name, reason):
            return "the zip archive contains the entry \"\(name)\", which \(reason); refusing an archive that could write outside its folder"
        case let .limitExceeded(detail):
            return "the zip archive is refused as a possible zip bomb: \(detail)"
        case let .unsupported(entry, detail):
            return "cannot read \"\(entry)\" in the zip archive: \(detail); zip it again without encryption using stored or deflated entries"
        case let .corruptEntry(entry, detail):
            return "\"\(entry)\" in the zip archive is corrupt: \(detail); copy or export the archive again"
        case let .readFailed(detail):
            return "cannot read the zip archive: \(detail)"
        case let .sinkFailed(detail):
            return "extraction stopped: \(detail)"
        }
    }
}
