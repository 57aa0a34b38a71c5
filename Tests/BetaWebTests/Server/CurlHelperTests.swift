import Foundation
import Testing
import TestSupport

/// The tests' curl helper: its process deadline follows the --max-time given (a fixed 120 s once
/// killed a 300 MB upload that curl had 900 s for, with no message), and a failure says what curl
/// said and how it ended.
@Suite struct CurlHelperTests {
    @Test func aFailedCurlNamesItsMessageAndExitStatus() async throws {
        // Port 1 on loopback: nothing listens there.
        let error = try #require(await #expect(throws: CurlError.self) { _ = try await curl("http://127.0.0.1:1/") })
        #expect(error.description.hasPrefix("curl http://127.0.0.1:1/ failed: curl: (7)"), "\(error)")
        #expect(error.description.contains("(exit status 7 after "), "\(error)")
        #expect(!error.description.contains("deadline"))
    }
}
