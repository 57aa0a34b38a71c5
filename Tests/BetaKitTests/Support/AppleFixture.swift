import AppleFormats
import Foundation
import HTTPClient
import TestSupport
@testable import BetaKit

/// A home connected to a running test App Store Connect server.
struct AppleFixture {
    let roster: RosterFixture
    let server: AppStoreConnectServer
    var home: Home { roster.home }
    var account: AppleAccount { AppleAccount(home: home) }

    init(scenario: [String: Any] = [:]) throws {
        // The membership year began 265 days ago whatever the date, as the generated devices are
        // dated relative to today (asc_server.py: device n was added n % 300 days ago).
        let renewal = CalendarDate(Date().addingTimeInterval(100 * 86_400)).description
        roster = try RosterFixture(renewal: renewal, created: CalendarDate(Date().addingTimeInterval(-400 * 86_400)).description)
        server = try AppStoreConnectServer(scenario: scenario)
        let key = try AppStoreConnectKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: server.key.path))), path: server.key.path,
                                         keyID: server.key.id, issuerID: server.key.issuer)
        try AppStoreConnectConnection(key: key, baseURL: server.baseURL, caFile: server.caFile, connectedAt: Date()).save(home: home)
    }

    /// A fresh client for the stored connection (its call count starts at zero).
    func client() throws -> AppStoreConnectClient { try account.client() }

    /// The generated Apple device number `index` (asc_server.py's `generate_devices`) as the roster writes it.
    static func generated(_ index: Int) -> DeviceIdentifier {
        // The literal form is valid by construction.
        try! DeviceIdentifier(String(format: "00008110-%016X", index + 1))
    }
}
