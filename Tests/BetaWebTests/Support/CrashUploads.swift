import Foundation
import Testing
import TestSupport

/// Crash report bodies as real clients send them, and helpers to read the store through the CLI.
enum CrashUploads {
    static func report(_ name: String) throws -> Data { try LocalFixtures.data("symbols/crashes/\(name)") }

    /// HockeySDK's multipart body, byte for byte as BITCrashManager/BITHockeyAppClient build it:
    /// every part is `--B CRLF headers CRLF CRLF value CRLF`, then `CRLF --B-- CRLF` closes the body,
    /// so the last part carries one CRLF the SDK never meant.
    static func hockeySDKBody(boundary: String, parts: [(name: String, filename: String?, contentType: String?, value: Data)]) -> Data {
        var body = Data()
        for part in parts {
            body.append(Data("--\(boundary)\r\n".utf8))
            if let filename = part.filename {
                body.append(Data("Content-Disposition: form-data; name=\"\(part.name)\"; filename=\"\(filename)\"\r\n".utf8))
            } else {
                body.append(Data("Content-Disposition: form-data; name=\"\(part.name)\"\r\n".utf8))
            }
            if let type = part.contentType { body.append(Data("Content-Type: \(type)\r\n".utf8)) }
            body.append(Data("\r\n".utf8))
            body.append(part.value)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return body
    }

    /// A Sentry CrashProbe event rewritten as the KSCrash report the same crash would have given
    /// (binary_images with UUIDs and load addresses, threads with instruction addresses), so it
    /// goes through the KSCrash intake with real dSYMs behind it.
    static func kscrashReport(fromSentryEvent data: Data) throws -> Data {
        let event = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let meta = try #require(event["debug_meta"] as? [String: Any])
        let images = try #require(meta["images"] as? [[String: Any]])
        func hex(_ value: Any?) -> UInt64 { (value as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) } ?? 0 }
        let binaryImages: [[String: Any]] = images.map { image in
            ["image_addr": hex(image["image_addr"]), "image_size": image["image_size"] ?? 0, "name": image["name"] ?? "",
             "uuid": image["uuid"] ?? "", "cpu_type": image["cpu_type"] ?? 0, "cpu_subtype": image["cpu_subtype"] ?? 0]
        }
        let values = try #require((event["threads"] as? [String: Any])?["values"] as? [[String: Any]])
        let threads: [[String: Any]] = values.enumerated().map { index, thread in
            let frames = ((thread["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]]) ?? []
            return ["index": index, "crashed": thread["crashed"] as? Bool ?? false,
                    "backtrace": ["contents": frames.reversed().map { ["instruction_addr": hex($0["instruction_addr"])] }]]
        }
        let report: [String: Any] = [
            "report": ["version": "3.4.0", "id": event["event_id"] ?? "crashprobe", "type": "standard", "timestamp": 1_500_000_000],
            "system": ["CFBundleExecutable": "CrashProbeiOS", "CFBundleIdentifier": "io.sentry.crashprobe", "CFBundleShortVersionString": "1.0",
                       "system_name": "iOS", "system_version": "10.3", "machine": "iPhone9,1", "cpu_arch": "arm64"],
            "crash": ["error": ["type": "mach", "mach": ["exception_name": "EXC_BAD_ACCESS"], "signal": ["name": "SIGSEGV"]], "threads": threads],
            "binary_images": binaryImages,
        ]
        return try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    }
}

extension WebFixture {
    /// `crashes --json`'s reports.
    func crashReports() throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(cli.ok(["crashes", "--json"]).utf8)) as? [String: Any])
        return try #require(object["reports"] as? [[String: Any]])
    }

    /// The report numbered `id` from `crashes --json`.
    func crashReport(_ id: Int) throws -> [String: Any]? {
        try crashReports().first { ($0["id"] as? Int) == id }
    }

    /// Waits until report `id` leaves the queue and returns it.
    func processedReport(_ id: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        var found: [String: Any]?
        try await waitUntil("report \(id) is processed", sourceLocation: sourceLocation) {
            found = try self.crashReport(id)
            return found.map { ($0["status"] as? String) != "queued" } ?? false
        }
        return try #require(found)
    }

    /// Creates an ingest key for the fixture app.
    func crashKey() throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(cli.ok(["crash-key", "create", "com.example.beta", "--json"]).utf8)) as? [String: Any])
        return try #require(object["key"] as? String)
    }
}
