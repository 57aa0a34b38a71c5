import BetaKit
import BetaServer

extension APIController {
    /// The crash operations under `/api/v1`: the raw intake endpoint, which takes an app's ingest key
    /// (not a token) and is routed with the SDK endpoints (`addCrashRoutes`), so it is only
    /// described here.
    var crashOperations: [APIOperation] {
        [
            APIOperation(
                method: .post, path: "/crashes", scope: nil, operationID: "sendCrashReport", tag: "Crash reports",
                summary: "Send one crash report (an .ips, .crash or KSCrash JSON file, or a JetsamEvent) as the request body.",
                parameters: [
                    .init(name: "name", schema: .text, description: "The report's file name, kept with the upload."),
                    .init(name: "user", schema: .text, description: "The app's user id; an email that is a tester's links the report to them."),
                    .init(name: "contact", schema: .text, description: "How to reach the user."),
                    .init(name: "description", schema: .text, description: "What the user wrote about the crash."),
                ],
                body: .init(mediaType: "application/octet-stream", schema: .binary(description: "The report file's bytes, at most the server's report size (10 MB by default)."),
                            description: "The report exactly as the device wrote it."),
                outcomes: [.init(status: 202, description: "Stored durably (written, fsync'd and recorded) and queued to be symbolicated; the same bytes sent again are the same report.",
                                 schema: .ref("CrashReceipt"))],
                bodyLimit: configuration.crashes.maxReportBytes,
                security: [["ingestKey": []]],
                isRoutedElsewhere: true
            ) { [intake] call in await intake.rawCrash(call.request, call.context) },
        ]
    }

    /// The crash schemas of the OpenAPI document.
    static var crashSchemas: [String: JSONSchema] {
        [
            "CrashReceipt": .object([
                .required("id", .integer(minimum: 1), "The report's number (`betactl show-crash ID`)."),
                .required("sha256", .string(description: "The SHA-256 of the report's bytes, which identify it.")),
                .required("duplicate", .boolean(description: "Whether the same bytes had been received before (this upload was added to them).")),
                .required("status", .string(values: CrashStatus.allCases.map(\.rawValue))),
            ], description: "What the server did with a report."),
        ]
    }

    /// The ingest key scheme of the OpenAPI document.
    static var crashSecuritySchemes: [String: JSONValue] {
        ["ingestKey": ["type": "apiKey", "in": "query", "name": "key",
                       "description": "An app's write-only crash ingest key, made with `betactl crash-key create BUNDLE_ID`; it can send reports and nothing else."]]
    }
}
