import BetaKit
import Foundation

/// A UTC instant from `YYYY-MM-DD` (midnight) or `YYYY-MM-DDTHH:MM:SSZ`; test inputs are literals, so a typo should fail loudly.
func at(_ text: String) -> Date {
    guard let date = Timestamp.date(text) else { preconditionFailure("bad test date \(text)") }
    return date
}
