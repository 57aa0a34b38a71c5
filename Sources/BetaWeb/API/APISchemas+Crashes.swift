import BetaKit
import BetaJSON

extension APISchemas {
    /// The report kinds `CrashJSON.kind` names.
    static let crashKinds = ["crash", "low-memory", "other", "unknown"]
    /// Where an upload came from (`CrashSource`).
    static let crashSources = ["page", "hockeyapp", "kscrash", "raw", "cli"]
    /// How a frame was resolved (`SymbolicatedReport.Status`).
    static let frameStatuses = ["symbolicated", "fromReport", "noSymbols", "notFound", "noImage"]

    /// The shapes of `CrashJSON` (reports, groups) and of a symbolicated report
    /// (`SymbolicatedReport.JSONView`, as `betactl symbolicate --json` prints it).
    static var crashes: [String: JSONSchema] {
        [
            "CrashReport": .object([
                .required("id", .integer(minimum: 1)), .required("sha256", .text), .required("size", .integer(minimum: 0)),
                .required("status", .string(values: CrashStatus.allCases.map(\.rawValue))),
                .required("kind", .string(description: "`unknown` until processed, or when the report could not be read.", values: crashKinds)),
                .optional("format", .string(description: "The format read: `ips`, `text`, `ipsText`, `kscrash`, `jetsam`, or a diagnostic report's kind.")),
                .optional("bugType", .text), .required("received", .timestamp), .required("lastReceived", .timestamp),
                .optional("processed", .timestamp), .optional("error", .string(description: "Why the report could not be read.")),
                .required("process", .object([.optional("name", .text), .optional("bundleID", .text), .optional("version", .text), .optional("build", .text)])),
                .optional("osVersion", .text), .optional("hardwareModel", .text), .optional("incidentIdentifier", .text),
                .optional("crashed", .string(description: "When it crashed, as the report writes it.")), .optional("exceptionType", .text),
                .optional("summary", .string(description: "The signature, the memory picture or the kind, in one line.")),
                .optional("group", .string(description: "The crash group's signature key.")), .optional("release", .integer(minimum: 1)),
                .optional("tester", .object([.required("id", .integer(minimum: 1)), .optional("name", .text)])),
                .optional("device", .string(description: "The linked device's UDID.")),
                .required("missingSymbols", .array(.object([.required("name", .text), .required("uuid", .text), .optional("architecture", .text)]),
                                                   description: "App images without archived symbols.")),
                .required("uploadCount", .integer(minimum: 0)),
                .optional("uploads", .array(.ref("CrashUpload")), "Every upload, oldest first; only for one report."),
                .optional("symbolicated", .ref("SymbolicatedCrash"), "One crash report only."),
                .optional("lowMemory", .ref("LowMemoryReport"), "One low-memory report only."),
            ], description: "A crash report (`betactl crashes --json`; one report as `show-crash ID --json`)."),
            "CrashUpload": .object([
                .required("received", .timestamp), .required("source", .string(values: crashSources)),
                .optional("testerID", .integer()), .optional("keyID", .integer()), .optional("userID", .text), .optional("contact", .text),
                .optional("description", .text), .optional("fileName", .text),
            ]),
            "CrashReportList": .object([.required("reports", .array(.ref("CrashReport"))), .optional("nextCursor", .text)]),
            "CrashGroup": .object([
                .required("signature", .string(description: "The signature key, sixteen hex digits.")),
                .required("title", .string(description: "\"EXC_BAD_ACCESS (SIGSEGV) | f | g | h\".")), .required("exceptionType", .text),
                .required("frames", .array(.text, description: "The app frames of the signature, innermost first.")),
                .required("count", .integer(minimum: 1)), .required("firstSeen", .timestamp), .required("lastSeen", .timestamp),
                .required("releases", .array(.integer())), .required("testers", .array(.integer())),
                .required("representative", .integer(description: "The number of the report that stands for the group.", minimum: 1)),
            ], description: "Reports with one crash signature (`betactl crash-groups --json`)."),
            "CrashGroupList": .object([.required("groups", .array(.ref("CrashGroup"))), .optional("nextCursor", .text)]),
            "SymbolicatedCrash": symbolicatedCrash,
            "CrashFrame": .object([
                .required("number", .integer(minimum: 0)), .required("address", .hexadecimal), .optional("image", .text), .optional("imageUUID", .text),
                .optional("imageOffset", .hexadecimal), .required("status", .string(values: frameStatuses)),
                .required("locations", .array(.object([
                    .optional("function", .string(description: "As Apple shows it (Swift and C++ demangled).")), .optional("rawFunction", .text),
                    .optional("file", .text), .required("line", .integer(minimum: 0)), .required("column", .integer(minimum: 0)),
                    .required("inlined", .boolean(description: "Whether this function was inlined into the next location.")),
                    .optional("symbolOffset", .integer(minimum: 0)),
                ]), description: "Source locations, innermost inlined function first; empty when nothing is known.")),
            ]),
            "LowMemoryReport": .object([
                .optional("pageSize", .integer(minimum: 0)), .optional("largestProcess", .text),
                .required("memoryPages", .object([], description: "The device's pages by state (free, active, wired, …).", additional: .integer())),
                .required("processes", .array(.object([
                    .required("name", .text), .optional("pid", .integer()), .required("residentPages", .integer(minimum: 0)),
                    .optional("bytes", .integer(minimum: 0)),
                    .optional("reason", .string(description: "Why it was killed (`per-process-limit`, `vm-pageshortage`, …); absent for processes left running.")),
                    .required("states", .array(.text)),
                ]), description: "Every process, largest first.")),
            ], description: "A JetsamEvent's memory picture."),
        ]
    }

    /// `SymbolicatedReport.JSONView`.
    static var symbolicatedCrash: JSONSchema {
        .object([
            .required("format", .text), .optional("bugType", .text), .optional("incidentIdentifier", .text), .optional("osVersion", .text),
            .optional("hardwareModel", .text), .optional("codeType", .text), .optional("date", .text),
            .required("process", .object([
                .optional("name", .text), .optional("path", .text), .optional("bundleIdentifier", .text), .optional("version", .text),
                .optional("build", .text), .optional("pid", .integer()),
            ])),
            .optional("exception", .object([
                .optional("type", .text), .optional("signal", .text), .optional("codes", .text), .optional("subtype", .text),
                .optional("note", .string(description: "The exception note or message.")),
            ])),
            .optional("terminationReason", .text), .optional("crashedThread", .integer()),
            .required("signature", .object([
                .required("exceptionType", .text), .required("frames", .array(.text)), .required("key", .text),
            ])),
            .required("threads", .array(.object([
                .required("number", .integer()), .optional("name", .text), .optional("queue", .text), .required("crashed", .boolean()),
                .required("frames", .array(.ref("CrashFrame"))),
            ]))),
            .optional("lastExceptionBacktrace", .array(.ref("CrashFrame")), "Where the app threw, when it did."),
            .required("imagesWithoutSymbols", .array(.object([
                .required("name", .text), .optional("uuid", .text), .required("isAppImage", .boolean()), .required("reason", .text),
            ]))),
            .required("images", .array(.object([
                .required("name", .text), .optional("uuid", .text), .optional("architecture", .text), .optional("path", .text),
                .required("loadAddress", .hexadecimal),
            ]))),
        ], description: "A crash read with the archived symbols, as `betactl symbolicate --json` prints it; addresses are hexadecimal strings.")
    }
}

extension JSONSchema {
    /// An address or offset as a `0x…` string (no JSON reader loses its precision).
    static var hexadecimal: JSONSchema { .string(pattern: "^0x[0-9a-f]+$") }
}
