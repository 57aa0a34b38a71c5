/// The kinds of file betactl recognises, with the stable names `inspect --json` prints as `kind`.
public enum AppleFileKind: String, Sendable, CaseIterable, Codable {
    /// A `.mobileprovision`.
    case provisioningProfile = "provisioning-profile"
    /// An exported `.ipa` (a zip with `Payload/<Name>.app`).
    case ipa
    /// An `.xcarchive`, as a folder or zipped.
    case xcarchive
    /// An `.app` bundle folder (or a zip holding one at its top).
    case app
    /// A `.dSYM` bundle, its DWARF file, or a zip of dSYMs.
    case dsym
    /// Any other Mach-O file: an executable, a dylib, a fat binary.
    case macho
    /// An Apple crash report: `.crash` text or `.ips` with bug_type 309 or 109.
    case crashReport = "crash-report"
    /// A jetsam event report (`.ips`, bug_type 298).
    case jetsamReport = "jetsam-report"
    /// Any other `.ips` diagnostic report.
    case diagnosticReport = "diagnostic-report"
    /// A KSCrash or SentryCrash JSON report.
    case kscrashReport = "kscrash-report"
    /// A JSON array of KSCrash reports, as KSCrash's HTTP sink posts several at once.
    case kscrashBatch = "kscrash-batch"
    /// A HockeySDK `<crashes><crash>` upload body.
    case hockeyAppCrashXML = "hockeyapp-crash-xml"
    /// A PLCrashReporter binary report.
    case plcrash
    /// A configuration profile (`.mobileconfig`), signed or not.
    case mobileconfig
    /// The signed attribute plist a device posts during enrolment.
    case deviceEnrollmentReply = "device-enrollment-reply"
    /// Apple's "multiple devices" upload file (tsv or `.deviceids`).
    case deviceList = "device-list"
    /// Any other XML or binary property list.
    case plist
    /// A PNG image, including Apple's CgBI ("crushed") form used in app bundles.
    case png
}
