import Foundation

/// The incident identifiers the committed crash fixtures carry, and copies of a fixture that are
/// another crash: the server keeps one report per incident, so a test that needs two reports
/// made from one fixture gives the second its own incident.
public enum CrashIncidents {
    /// The incident of `Tests/Fixtures/symbols/crashes/*` and the HockeyApp upload.
    public static let app = "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6"
    /// The incident of `Tests/Fixtures/inspect/ips/*`.
    public static let inspect = "9A8B7C6D-5E4F-4A3B-9C2D-1E0F9A8B7C6D"
    /// The `report.id` of `Tests/Fixtures/inspect/kscrash/*`.
    public static let kscrash = "5E6F7A8B-9C0D-4E1F-A2B3-C4D5E6F7A8B9"

    /// A made-up incident identifier numbered `number`.
    public static func fresh(_ number: Int) -> String {
        let hex = String(number, radix: 16, uppercase: true)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// `report` with the fixtures' incident identifiers (any case) replaced by `fresh(number)`.
    public static func renumbered(_ report: Data, _ number: Int) -> Data {
        var text = String(decoding: report, as: UTF8.self)
        for incident in [app, inspect, kscrash] {
            text = text.replacingOccurrences(of: incident, with: fresh(number)).replacingOccurrences(of: incident.lowercased(), with: fresh(number))
        }
        return Data(text.utf8)
    }

    /// `renumbered` for byte arrays.
    public static func renumbered(_ report: [UInt8], _ number: Int) -> [UInt8] {
        [UInt8](renumbered(Data(report), number))
    }
}
