/// Why DWARF debug information could not be read.
///
/// Errors name the section and offset so a corrupt dSYM can be reported precisely; the
/// symbolicator treats them as "no information for this unit" and keeps going.
public enum DWARFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes of `section` at `offset` are inconsistent.
    case malformed(section: String, offset: Int, reason: String)
    /// A unit or line table uses a DWARF version this reader does not know.
    case unsupportedVersion(section: String, offset: Int, version: Int)
    /// A section the data refers to is absent.
    case missingSection(String)

    /// A sentence naming the section, offset and remedy.
    public var description: String {
        switch self {
        case let .malformed(section, offset, reason):
            return "malformed DWARF in \(section) at offset \(offset): \(reason); the dSYM is corrupt or truncated, so regenerate it with dsymutil"
        case let .unsupportedVersion(section, offset, version):
            return "DWARF version \(version) in \(section) at offset \(offset) is not supported (versions 2 to 5 are); rebuild with -gdwarf-4 or -gdwarf-5"
        case let .missingSection(name):
            return "the DWARF data refers to \(name), which the file does not contain; the dSYM is incomplete, so regenerate it with dsymutil"
        }
    }

    static func wrap(_ error: BinaryError, section: String) -> DWARFError {
        switch error {
        case let .truncated(at, needed, available):
            return .malformed(section: section, offset: at, reason: "needed \(needed) bytes but only \(available) remain")
        case let .outOfBounds(offset, size, _):
            return .malformed(section: section, offset: offset, reason: "offset lies outside the \(size)-byte section")
        case let .invalid(at, reason):
            return .malformed(section: section, offset: at, reason: reason)
        }
    }
}
