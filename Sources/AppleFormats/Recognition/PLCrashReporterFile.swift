/// A PLCrashReporter binary report: the magic `plcrash`, a format version byte, then a protocol
/// buffer. betactl recognises it and says how to convert it; it does not decode the protobuf.
public struct PLCrashReporterFile: Sendable, Equatable {
    /// The file format version (1 for every PLCrashReporter release).
    public var formatVersion: UInt8
    /// The size of the protocol buffer after the header.
    public var payloadSize: Int

    /// The file's magic bytes.
    public static let magic: [UInt8] = Array("plcrash".utf8)

    /// How to turn the report into the text betactl and Apple's tools read.
    public static let conversionHint = "convert it to an Apple-style text report with `plcrashutil convert --format=iphone FILE > FILE.crash`, then inspect or symbolicate that"

    /// Reads the header; nil when `bytes` do not start with the magic and a version byte.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count > Self.magic.count, bytes.starts(with: Self.magic) else { return nil }
        formatVersion = bytes.dropFirst(Self.magic.count).first ?? 0
        payloadSize = bytes.count - Self.magic.count - 1
    }
}
