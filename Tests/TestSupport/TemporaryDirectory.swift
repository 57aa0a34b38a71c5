import Foundation

/// A fresh directory under the system temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory.
    public let path: String

    /// Creates the directory, named after `label` so leftovers can be traced to their test.
    public init(_ label: String = "betactl-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func child(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = child(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Deterministic pseudo-random bytes for file fixtures.
public func patternBytes(_ count: Int, seed: UInt32 = 7) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 1_103_515_245 &+ 12345
        return UInt8(truncatingIfNeeded: state >> 16)
    }
}
