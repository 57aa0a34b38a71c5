import Foundation

/// Locates `../shared/fixtures` beside the repository. Tests that need it skip when it is absent.
enum SharedFixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static var available: Bool { FileManager.default.fileExists(atPath: root.path) }

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }
}
