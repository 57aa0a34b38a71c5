/// The `bug_type` numbers of Apple's diagnostic reports that betactl names.
///
/// Names follow the reports' own file names (`JetsamEvent-…`, `…cpu_resource…`, `Stacks-…`,
/// `panic-full-…`); a number not listed is still shown, with no name.
public enum IPSBugType {
    /// Crash reports: 109 (text body, iOS 14 and earlier) and 309 (JSON body).
    public static let crashes: Set<String> = ["109", "309"]
    /// Jetsam (low-memory) events.
    public static let jetsam = "298"

    static let names: [String: String] = [
        "109": "crash", "309": "crash", "298": "jetsam",
        "142": "wakeups_resource", "145": "diskwrites_resource", "202": "cpu_resource",
        "210": "panic", "211": "analytics", "288": "stackshot", "385": "exc_resource",
    ]

    /// The name of `bugType`, such as "cpu_resource", or nil when betactl does not know it.
    public static func name(for bugType: String) -> String? { names[bugType] }
}
