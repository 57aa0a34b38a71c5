import AppleFormats
import Foundation
import Testing
import TestSupport

/// Crash reports, profiles and API bodies nested to their parser's limit and one level past it,
/// sent to a debug `betactl serve` (the build whose stack frames are largest): each route answers
/// as it does for any other report, profile or body it can or cannot read, and the server keeps
/// answering. Before the limits were lowered, an `.ips` nested 450 deep was accepted with 202 and
/// then killed the server while it was processed, and a deeply nested profile killed it at once.
@Suite(.serialized) struct NestedPayloadIntegrationTests {
    static let jsonLimit = JSONNesting.maximumDepth
    static let plistLimit = PlistValue.maximumNesting

    /// `text` with `"nested": <arrays>` as the first member of its first object, so that the
    /// whole document nests `depth` deep.
    static func withNestedMember(_ text: Data, depth: Int) throws -> Data {
        let bytes = [UInt8](text)
        let brace = try #require(bytes.firstIndex(of: UInt8(ascii: "{")))
        return Data(bytes[...brace] + Array("\"nested\": \(NestedData.jsonArrays(depth - 1)), ".utf8) + bytes[(brace + 1)...])
    }

    /// App-309.ips with its body nested `depth` deep.
    static func ips(depth: Int) throws -> Data {
        let bytes = try CrashUploads.report("App-309.ips")
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        return bytes[...newline] + (try withNestedMember(bytes[(newline + 1)...], depth: depth))
    }

    /// Sends `data` to the raw endpoint and returns the answer.
    static func sendRaw(_ server: ServeProcess, key: String, _ data: Data, name: String) async throws -> CurlResponse {
        let directory = try TemporaryDirectory("nested-crash")
        let file = directory.child(name)
        try data.write(to: URL(fileURLWithPath: file))
        return try await curl("\(server.base)/api/v1/crashes?key=\(key)&name=\(name)", ["--max-time", "300", "--data-binary", "@\(file)"])
    }

    static func receiptID(_ answer: CurlResponse) throws -> Int {
        #expect(answer.status == 202, "\(answer.status) \(answer.text)")
        return try #require((try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["id"] as? Int)
    }

    @Test func anIPSNestedToTheLimitIsProcessedAndOneLevelMoreIsMarkedUnreadableWithTheServerUp() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try await fixture.serve()
        defer { _ = server.stop() }
        let atLimit = try Self.receiptID(try await Self.sendRaw(server, key: key, try Self.ips(depth: Self.jsonLimit), name: "at-limit.ips"))
        #expect(try await fixture.processedReport(atLimit)["status"] as? String == "partial")
        for (index, depth) in [Self.jsonLimit + 1, 450, 20_000].enumerated() {
            // Each its own incident: a report with the same one would be another upload of the first.
            let deep = CrashIncidents.renumbered(try Self.ips(depth: depth), index + 1)
            let id = try Self.receiptID(try await Self.sendRaw(server, key: key, deep, name: "deep-\(index).ips"))
            let report = try await fixture.processedReport(id)
            #expect(report["status"] as? String == "unreadable", "depth \(depth): \(report)")
            #expect("\(report)".contains("nest \(Self.jsonLimit + 1) levels deep, more than the \(Self.jsonLimit) allowed"), "depth \(depth): \(report)")
        }
        #expect(server.process.isRunning)
        #expect(try await curl("\(server.base)/t/\(fixture.annToken)").status == 200)
    }

    @Test func theTestersCrashFormTakesAnIPSNestedToTheLimitAndMarksOneLevelMoreUnreadableWithTheServerUp() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve()
        defer { _ = server.stop() }
        let page = "\(server.base)/t/\(fixture.annToken)"
        let directory = try TemporaryDirectory("nested-form")
        for (number, depth) in [(1, Self.jsonLimit), (2, Self.jsonLimit + 1), (3, 450)] {
            let file = directory.child("report-\(number).ips")
            try CrashIncidents.renumbered(try Self.ips(depth: depth), number).write(to: URL(fileURLWithPath: file))
            let upload = try await curl("\(page)/crashes", ["-F", "report=@\(file)"])
            #expect(upload.status == 200, "depth \(depth): \(upload.status)")
            #expect(upload.text.contains("Received as report \(number)."), "depth \(depth): \(upload.text)")
            let report = try await fixture.processedReport(number)
            if depth <= Self.jsonLimit {
                #expect(report["status"] as? String == "partial", "depth \(depth): \(report)")
            } else {
                #expect(report["status"] as? String == "unreadable", "depth \(depth): \(report)")
                #expect("\(report)".contains("nest \(Self.jsonLimit + 1) levels deep, more than the \(Self.jsonLimit) allowed"), "depth \(depth): \(report)")
            }
        }
        #expect(server.process.isRunning)
        #expect(try await curl(page).status == 200)
    }

    @Test func kscrashReportsNestedToTheLimitAreProcessedAndOneLevelMoreIsRefusedWithTheServerUp() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try await fixture.serve()
        defer { _ = server.stop() }
        let original = try LocalFixtures.data("inspect/kscrash/kscrash-3.4.0-microseconds.json")
        let atLimit = try Self.receiptID(try await Self.sendRaw(server, key: key, try Self.withNestedMember(original, depth: Self.jsonLimit), name: "at-limit.json"))
        let processed = try await fixture.processedReport(atLimit)
        #expect(processed["format"] as? String == "kscrash" && processed["status"] as? String == "partial", "\(processed)")
        // The intake stores what looks like a report and reads it in the background: one level too
        // deep, it is marked unreadable, naming the depth.
        let over = try Self.receiptID(try await Self.sendRaw(server, key: key, CrashIncidents.renumbered(try Self.withNestedMember(original, depth: Self.jsonLimit + 1), 1), name: "over.json"))
        let refused = try await fixture.processedReport(over)
        #expect(refused["status"] as? String == "unreadable", "\(refused)")
        #expect("\(refused)".contains("nest \(Self.jsonLimit + 1) levels deep, more than the \(Self.jsonLimit) allowed"), "\(refused)")

        // KSCrash's standard sink: a batch holding one report nested one level too deep, and one far deeper.
        let directory = try TemporaryDirectory("nested-kscrash")
        let batch = directory.child("reports.json")
        let reports = [CrashIncidents.renumbered(try Self.withNestedMember(original, depth: Self.jsonLimit + 1), 2),
                       CrashIncidents.renumbered(try Self.withNestedMember(original, depth: 500), 3)]
        try (Data("[".utf8) + reports[0] + Data(",".utf8) + reports[1] + Data("]".utf8)).write(to: URL(fileURLWithPath: batch))
        let sink = try await curl("\(server.base)/api/kscrash/\(key)", ["-F", "reports=@\(batch);type=application/json"])
        #expect(sink.status == 200, "\(sink.status) \(sink.text)")
        let receipts = try #require((try JSONSerialization.jsonObject(with: sink.body) as? [String: Any])?["reports"] as? [[String: Any]])
        #expect(receipts.count == 2)
        for id in receipts.compactMap({ $0["id"] as? Int }) {
            #expect(try await fixture.processedReport(id)["status"] as? String == "unreadable")
        }
        #expect(server.process.isRunning)
        #expect(try await curl("\(server.base)/t/\(fixture.annToken)").status == 200)
        withExtendedLifetime(directory) {}
    }

    @Test func hockeyAppXMLNestedToItsLimitIsStoredAndOneLevelMoreIsRefusedWithTheServerUp() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try await fixture.serve()
        defer { _ = server.stop() }
        let directory = try TemporaryDirectory("nested-hockey")
        let xml = String(decoding: try LocalFixtures.data("inspect/hockeyapp/crash-upload.xml"), as: UTF8.self)
        let limit = 64  // XMLTreeReader.maxDepth: <crashes> and <crash> are the first two levels
        func post(_ depth: Int) async throws -> CurlResponse {
            let nested = String(repeating: "<extra>", count: depth - 2) + String(repeating: "</extra>", count: depth - 2)
            let document = xml.replacingOccurrences(of: "<crash>", with: "<crash>" + nested)
            let file = directory.child("xml-\(depth)")
            try CrashUploads.hockeySDKBody(boundary: "----FOO", parts: [("xml", "crash.xml", "text/xml", Data(document.utf8))]).write(to: URL(fileURLWithPath: file))
            return try await curl("\(server.base)/api/2/apps/\(key)/crashes", ["-H", "Content-Type: multipart/form-data; boundary=----FOO", "--data-binary", "@\(file)"])
        }
        #expect(try await post(limit).status == 201)
        let over = try await post(limit + 1)
        #expect(over.status == 422, "\(over.text)")
        #expect(over.text.contains("elements nest \(limit + 1) levels deep, more than the \(limit) allowed"), "\(over.text)")
        #expect(server.process.isRunning)
        #expect(try await curl("\(server.base)/t/\(fixture.annToken)").status == 200)
    }

    @Test(.enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
    func aProfileNestedToTheLimitIsImportedAndOneLevelMoreIsRefusedWithTheServerUp() async throws {
        let fixture = try await AdminFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        let directory = try TemporaryDirectory("nested-profile")
        let signer = try await OpenSSLTool.makeDeviceIdentity(in: directory)
        let original = LocalFixtures.url("formats/profiles/beta_development.mobileprovision").path
        let content = String(decoding: try await OpenSSLTool.run(["cms", "-verify", "-noverify", "-inform", "DER", "-in", original]), as: UTF8.self)
        func post(_ depth: Int) async throws -> CurlResponse {
            // The profile's top dictionary is level 1.
            let nested = "<key>Nested</key>" + String(repeating: "<array>", count: depth - 1) + String(repeating: "</array>", count: depth - 1)
            let plist = try directory.write("profile-\(depth).plist", Array(content.replacingOccurrences(of: "<dict>", with: "<dict>" + nested, options: [], range: content.range(of: "<dict>")).utf8))
            let profile = directory.child("profile-\(depth).mobileprovision")
            try await OpenSSLTool.run(["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", plist, "-signer", signer.certificate,
                                       "-inkey", signer.key, "-out", profile])
            return try await api(server, "POST", "/profiles", token: fixture.write, ["-H", "Content-Type: application/octet-stream", "--data-binary", "@\(profile)"])
        }
        let imported = try await post(Self.plistLimit)
        #expect(imported.status == 201, "\(imported.text)")
        for depth in [Self.plistLimit + 1, 5000] {
            let refused = try await post(depth)
            let problem = try refused.problem(422, "invalid-profile")
            #expect((problem["detail"] as? String)?.contains("nest \(Self.plistLimit + 1) levels deep, more than the \(Self.plistLimit) allowed") == true, "\(problem)")
        }
        #expect(server.process.isRunning)
        #expect(try await api(server, "GET", "/profiles", token: fixture.read).status == 200)
    }

    /// Beta.ipa with `"Nested"` added to its app's Info.plist (kept binary), nesting it `depth` deep.
    static let nestedInfoPlistScript = """
        import plistlib, sys, zipfile
        source, target, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
        with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
            for info in old.infolist():
                data = old.read(info)
                if info.filename.count("/") == 2 and info.filename.endswith(".app/Info.plist"):
                    value = plistlib.loads(data)
                    nested = []
                    for _ in range(depth - 2):
                        nested = [nested]
                    value["Nested"] = nested
                    data = plistlib.dumps(value, fmt=plistlib.FMT_BINARY)
                new.writestr(info, data)
        """

    @Test func aBuildWhoseInfoPlistNestsToTheLimitIsPublishedAndOneLevelMoreIsRefusedWithTheServerUp() async throws {
        let fixture = try await AdminFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        let directory = try TemporaryDirectory("nested-ipa")
        func upload(_ depth: Int) async throws -> CurlResponse {
            let edited = directory.child("Beta-\(depth)-edited.ipa")
            let made = try await runTool("python3", ["-c", Self.nestedInfoPlistScript, WebFixture.app("Beta.ipa"), edited, String(depth)])
            #expect(made.status == 0, "\(made.error)")
            // Signed again after the edit, so only the nesting can stop it (betactl's signer reads
            // Info.plist too, so one past the limit cannot be signed: its seal is broken, and the
            // nesting is reported first).
            let ipa = depth <= Self.plistLimit ? try ResignedIPA.make(from: edited, named: "Beta-\(depth).ipa", in: directory) : edited
            return try await api(server, "POST", "/releases", token: fixture.write, ["-F", "ipa=@\(ipa)", "-F", "again=true"])
        }
        let published = try await upload(Self.plistLimit)
        #expect(published.status == 201, "\(published.text)")
        for depth in [Self.plistLimit + 1, 500] {
            let refused = try await upload(depth)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains("nest \(Self.plistLimit + 1) levels deep, more than the \(Self.plistLimit) allowed"), "\(refused.text)")
        }
        #expect(server.process.isRunning)
        #expect(try await api(server, "GET", "/releases", token: fixture.read).status == 200)
    }

    @Test func anAPIBodyNestedToTheLimitIsReadAndOneLevelMoreIsRefusedWithTheServerUp() async throws {
        let fixture = try await AdminFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        // The body object is level 1 and `groups` level 2: nested to the limit, its first element is
        // an array where a string belongs.
        let atLimit = try await api(server, "POST", "/testers", token: fixture.write,
                                    json: #"{"name": "Deb Ray", "groups": "# + NestedData.jsonArrays(Self.jsonLimit - 1) + "}")
        let mismatch = try atLimit.problem(400, "invalid-json")
        #expect((mismatch["detail"] as? String)?.contains("the field groups.[0] must be a string") == true, "\(mismatch)")
        for depth in [Self.jsonLimit + 1, 20_000] {
            let over = try await api(server, "POST", "/testers", token: fixture.write,
                                     json: #"{"name": "Deb Ray", "groups": "# + NestedData.jsonArrays(depth - 1) + "}")
            let problem = try over.problem(400, "invalid-json")
            #expect((problem["detail"] as? String)?.contains("nest \(Self.jsonLimit + 1) levels deep, more than the \(Self.jsonLimit) allowed") == true, "\(problem)")
        }
        #expect(server.process.isRunning)
        let created = try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Deb Ray", "groups": ["qa"]}"#)
        #expect(created.status == 201, "\(created.text)")
    }
}
