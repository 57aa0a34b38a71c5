import AppleFormats

/// What `betactl inspect` found in one file: its kind and the typed summary of that kind.
/// Pages and the API reuse it; its JSON form is one object with `path`, `kind` and the fields of
/// the kind's summary.
public struct FileInspection: Encodable, Sendable, Equatable {
    /// The path inspected.
    public var path: String
    /// The kind, recognised from the bytes.
    public var kind: AppleFileKind
    /// The fields of that kind.
    public var summary: InspectionSummary

    /// Creates an inspection.
    public init(path: String, kind: AppleFileKind, summary: InspectionSummary) {
        self.path = path
        self.kind = kind
        self.summary = summary
    }

    enum CodingKeys: String, CodingKey { case path, kind }

    /// `path`, `kind`, then the summary's fields in the same object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(kind.rawValue, forKey: .kind)
        try summary.encode(to: encoder)
    }
}

/// The typed fields of each kind.
public enum InspectionSummary: Encodable, Sendable, Equatable {
    /// `provisioning-profile`.
    case provisioningProfile(ProfileSummary)
    /// `ipa`, `xcarchive`, `app`.
    case bundle(BundleSummary)
    /// `dsym`, `macho`.
    case machO(MachOSummary)
    /// `crash-report`.
    case crashReport(CrashReportSummary)
    /// `jetsam-report`.
    case jetsam(JetsamSummary)
    /// `diagnostic-report`.
    case diagnostic(DiagnosticSummary)
    /// `kscrash-report`.
    case kscrash(KSCrashSummary)
    /// `kscrash-batch`.
    case kscrashBatch(KSCrashBatchSummary)
    /// `hockeyapp-crash-xml`.
    case hockeyApp(HockeyAppSummary)
    /// `plcrash`.
    case plcrash(PLCrashSummary)
    /// `mobileconfig`.
    case mobileconfig(MobileConfigSummary)
    /// `device-enrollment-reply`.
    case enrollmentReply(EnrollmentReplySummary)
    /// `device-list`.
    case deviceList(DeviceListSummary)
    /// `plist`.
    case plist(PlistSummary)
    /// `png`.
    case png(PNGSummary)

    /// Encodes the summary's own fields (into the enclosing object).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case let .provisioningProfile(value): try value.encode(to: encoder)
        case let .bundle(value): try value.encode(to: encoder)
        case let .machO(value): try value.encode(to: encoder)
        case let .crashReport(value): try value.encode(to: encoder)
        case let .jetsam(value): try value.encode(to: encoder)
        case let .diagnostic(value): try value.encode(to: encoder)
        case let .kscrash(value): try value.encode(to: encoder)
        case let .kscrashBatch(value): try value.encode(to: encoder)
        case let .hockeyApp(value): try value.encode(to: encoder)
        case let .plcrash(value): try value.encode(to: encoder)
        case let .mobileconfig(value): try value.encode(to: encoder)
        case let .enrollmentReply(value): try value.encode(to: encoder)
        case let .deviceList(value): try value.encode(to: encoder)
        case let .plist(value): try value.encode(to: encoder)
        case let .png(value): try value.encode(to: encoder)
        }
    }
}
