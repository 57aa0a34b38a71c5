import Foundation
import Testing

/// Running betactl from async tests: the run happens on a thread of its own, so a test waiting for
/// a command does not hold one of the cooperative pool's threads.
extension Betactl {
    /// `run` for async code.
    @discardableResult
    public func runAsync(_ arguments: String...) async throws -> Result { try await runAsync(arguments) }

    /// `run` for async code.
    @discardableResult
    public func runAsync(_ arguments: [String]) async throws -> Result {
        try await blocking { [self] in try run(arguments) }
    }

    /// `ok` for async code: runs and requires success, returning standard output.
    @discardableResult
    public func okAsync(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await okAsync(arguments, sourceLocation: sourceLocation)
    }

    /// `ok` for async code, with the arguments as an array.
    @discardableResult
    public func okAsync(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await runAsync(arguments)
        #expect(result.status == 0, "betactl \(arguments.joined(separator: " ")) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }
}
