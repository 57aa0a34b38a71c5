import AppleFormats
@testable import BetaKit
import Foundation
import Testing
import TestSupport

/// Crash intake through real HTTP: curl and hand-built SDK bodies against `betactl serve`, the
/// results read back through the CLI.
@Suite(.serialized) struct CrashIntakeIntegrationTests {
    @Test func aTestersUploadAndItsGroupShowOnThePageAndInCrashesJSON() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let page = "\(server.base)/t/\(fixture.annToken)"
        let directory = try TemporaryDirectory("crash-upload")
        let report = directory.child("App-309.ips")
        try CrashUploads.report("App-309.ips").write(to: URL(fileURLWithPath: report))
        let photo = LocalFixtures.url("formats/icons/cgbi_7x5_multiIDAT.png").path

        let form = try await server.fetch(page)
        #expect(form.text.contains("action=\"\(page)/crashes\""))
        #expect(form.text.contains("Analytics &amp; Improvements"))
        #expect(form.text.contains("href=\"\(page)/enroll\""), "the enrolment link and the crash form are both on the page")
        let upload = try await server.fetch("\(page)/crashes", ["-F", "report=@\(report)", "-F", "report=@\(photo)", "-F", "description=It crashed when I tapped Save"])
        #expect(upload.status == 200)
        #expect(upload.text.contains("Received as report 1."))
        #expect(upload.text.contains("Not a crash report"), "the photo is refused on its own")
        #expect(upload.headers["cache-control"] == "private, no-store")

        let stored = try await fixture.processedReport(1)
        #expect(stored["status"] as? String == "partial", "the App's dSYM is not archived in this home")
        #expect((stored["tester"] as? [String: Any])?["name"] as? String == "Ann Lee")
        let group = try #require(stored["group"] as? String)
        #expect((stored["missingSymbols"] as? [[String: Any]])?.first?["uuid"] as? String == "4C4C440B-5555-3144-A184-68D7AACD7C75")
        #expect(try fixture.crashReports().count == 1, "nothing was stored for the photo")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(fixture.cli.ok(["show-crash", "1", "--json"]).utf8)) as? [String: Any])
        #expect((shown["uploads"] as? [[String: Any]])?.first?["description"] as? String == "It crashed when I tapped Save")
        let groups = try #require((try JSONSerialization.jsonObject(with: Data(fixture.cli.ok(["crash-groups", "--json"]).utf8)) as? [String: Any])?["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups.first?["signature"] as? String == group)
        #expect(groups.first?["count"] as? Int == 1)

        // The same report again, from the page: one report, two uploads, and the page lists it.
        let again = try await server.fetch("\(page)/crashes", ["-F", "report=@\(report)"])
        #expect(again.text.contains("Already received as report 1"))
        try await waitUntil("the page lists the report") {
            let text = try await server.fetch(page).text
            return text.contains("Your reports") && text.contains("App 1.2 (42): EXC_BAD_ACCESS (SIGSEGV)")
        }
        // Its outcome and its group: the dSYM is missing, and it is the first of its crash.
        let listed = try await server.fetch(page).text
        #expect(listed.contains("Report 1 ·") && listed.contains("received; waiting for the build&#39;s symbols"))
        #expect(listed.contains("the first report of this crash"))
        #expect(try fixture.crashReport(1)?["uploadCount"] as? Int == 2)
        // Bo sees none of Ann's reports.
        #expect(!(try await server.fetch("\(server.base)/t/\(fixture.boToken)").text.contains("Your reports")))
        let refused = try await server.fetch("\(page)/crashes", ["-F", "report=@\(photo)"])
        #expect(refused.status == 422)
        withExtendedLifetime(directory) {}
    }

    @Test func hockeySDKKSCrashAndRawUploadsAreStoredAndAnswered() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try await fixture.serve()
        defer { _ = server.stop() }
        let directory = try TemporaryDirectory("crash-sdk")

        // HockeySDK's /crashes/upload form, byte for byte, the log as the last part.
        let log = try CrashUploads.report("App-legacy.crash")
        let boundary = "----FOO"
        let body = CrashUploads.hockeySDKBody(boundary: boundary, parts: [
            ("userID", nil, nil, Data("ann@example.com".utf8)), ("contact", nil, nil, Data("Ann".utf8)),
            ("description", nil, nil, Data("tapped Save".utf8)), ("log", "crash.log", "text/plain", log),
        ])
        #expect(body.suffix(4 + boundary.count + 6) == Data("\r\n\r\n--\(boundary)--\r\n".utf8), "the extra CRLF HockeySDK sends")
        let bodyFile = directory.child("hockey-upload")
        try body.write(to: URL(fileURLWithPath: bodyFile))
        let hockey = try await curl("\(server.base)/api/2/apps/\(key)/crashes/upload",
                                    ["-H", "Content-Type: multipart/form-data; boundary=\(boundary)", "--data-binary", "@\(bodyFile)"])
        #expect(hockey.status == 201)
        #expect(!hockey.body.isEmpty, "HockeySDK counts an empty body as a failure")
        let raw = try await blocking { try fixture.cli.run("show-crash", "1", "--raw") }
        #expect(Data(raw.stdout.utf8) == log, "the stored log is exactly the file, without the SDK's extra CRLF")
        let linked = try await fixture.processedReport(1)
        #expect((linked["tester"] as? [String: Any])?["name"] as? String == "Ann Lee", "userID matches Ann's email")

        // The xml form: the report inside the document is what is stored.
        let xml = try LocalFixtures.data("inspect/hockeyapp/crash-upload.xml")
        let document = try HockeyAppCrashUpload(bytes: [UInt8](xml))
        let xmlFile = directory.child("hockey-xml")
        try CrashUploads.hockeySDKBody(boundary: boundary, parts: [("xml", "crash.xml", "text/xml", xml)]).write(to: URL(fileURLWithPath: xmlFile))
        let posted = try await curl("\(server.base)/api/2/apps/\(key)/crashes",
                                    ["-H", "Content-Type: multipart/form-data; boundary=\(boundary)", "--data-binary", "@\(xmlFile)"])
        #expect(posted.status == 201)
        let logDigest = SHA256.hash(Array(document.crashes[0].log.utf8)).hex
        let fromXML = try #require(try fixture.crashReports().first { $0["sha256"] as? String == logDigest }?["id"] as? Int)
        #expect(try fixture.cli.run("show-crash", String(fromXML), "--raw").stdout == document.crashes[0].log)

        // KSCrash's standard sink: the example reports in one `reports` array.
        let names = ["Abort", "BadPointer", "NSException", "StackOverflow"]
        if SharedFixtures.available {
            let array = "[" + (try names.map { String(decoding: try SharedFixtures.data("crash/kscrash/\($0).json"), as: UTF8.self) }).joined(separator: ",") + "]"
            let reportsFile = directory.child("reports.json")
            try Data(array.utf8).write(to: URL(fileURLWithPath: reportsFile))
            let ks = try await curl("\(server.base)/api/kscrash/\(key)", ["-F", "reports=@\(reportsFile);type=application/json"])
            #expect(ks.status == 200)
            let receipts = try #require((try JSONSerialization.jsonObject(with: ks.body) as? [String: Any])?["reports"] as? [[String: Any]])
            let ids = receipts.compactMap { $0["id"] as? Int }
            #expect(ids.count == 4 && Set(ids).count == 4 && receipts.allSatisfy { $0["duplicate"] as? Bool == false })
            for id in ids {
                let report = try await fixture.processedReport(id)
                #expect(report["format"] as? String == "kscrash")
                #expect(report["status"] as? String == "partial", "Crash-Tester's dSYM is not archived")
                #expect((report["missingSymbols"] as? [[String: Any]])?.contains { $0["name"] as? String == "Crash-Tester" } == true)
            }
        }

        // Raw: the same bytes twice are one report.
        let ips = directory.child("App-109.ips")
        // Another incident than the log's above (the fixtures share theirs).
        try CrashIncidents.renumbered(try CrashUploads.report("App-109.ips"), 0x109).write(to: URL(fileURLWithPath: ips))
        let first = try await curl("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(ips)"])
        let second = try await curl("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(ips)"])
        #expect(first.status == 202 && second.status == 202)
        let one = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
        let two = try #require(try JSONSerialization.jsonObject(with: second.body) as? [String: Any])
        #expect(one["id"] as? Int == two["id"] as? Int)
        #expect(one["duplicate"] as? Bool == false && two["duplicate"] as? Bool == true)

        // Keys: unknown and revoked ones are refused (the raw endpoint is part of /api/v1: a problem
        // document; the SDKs' endpoints answer in plain text); the access log never shows a key.
        let unknown = try await curl("\(server.base)/api/v1/crashes?key=nope", ["--data-binary", "@\(ips)"])
        #expect(unknown.status == 401)
        #expect(unknown.headers["content-type"] == "application/problem+json")
        #expect((try JSONSerialization.jsonObject(with: unknown.body) as? [String: Any])?["type"] as? String == "urn:betactl:problem:unauthorized")
        #expect(try await curl("\(server.base)/api/2/apps/nope/crashes/upload", ["-F", "log=@\(ips)"]).status == 404)
        try fixture.cli.ok(["crash-key", "revoke", "1"])
        #expect(try await curl("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(ips)"]).status == 401)
        #expect(!server.errorLines.joined().contains(key))
        withExtendedLifetime(directory) {}
    }

    /// Sentry's CrashProbe crashes (real dSYMs), sent as KSCrash reports before their dSYMs are
    /// archived, then symbolicated when `add-symbols` brings them: every CrashProbe frame lands
    /// where llvm-symbolizer puts it.
    @Test(.enabled(if: SharedFixtures.available && LLVMOracle.available))
    func realReportsAreSymbolicatedWhenTheirDSYMsArriveLater() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let directory = try TemporaryDirectory("crash-probe")
        let events = ["Crash with _pthread_list_lock held", "Dereference a NULL pointer", "Swift", "Throw Objective-C exception"]
        for (index, event) in events.enumerated() {
            let file = directory.child("event-\(index).json")
            try CrashUploads.kscrashReport(fromSentryEvent: try SharedFixtures.data("crash/crashprobe/arm64/\(event).json")).write(to: URL(fileURLWithPath: file))
            #expect(try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(file)"]).status == 202)
        }
        // Apple's own text reports (no dSYMs here) are read and wait for theirs.
        for name in ["XCDYouTubeKit-54.txt", "bruno.txt"] {
            #expect(try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(SharedFixtures.url("crash/acrp/\(name)").path)"]).status == 202)
        }
        for id in 1 ... 6 {
            let report = try await fixture.processedReport(id)
            #expect(report["status"] as? String == "partial", "report \(id): \(report)")
            #expect((report["missingSymbols"] as? [[String: Any]])?.isEmpty == false)
        }
        let dSYMs = ["arm64-CrashProbeiOS.app.dSYM", "arm64-CrashLibiOS.framework.dSYM"].map { SharedFixtures.url("crash/crashprobe/\($0)").path }
        try fixture.cli.ok(["add-symbols"] + dSYMs)
        // CrashProbe also bundles KSCrash.framework, whose dSYM is not among the fixtures: those
        // reports stay partial, naming only it.
        for id in 1 ... 4 {
            try await waitUntil("report \(id) has CrashProbe's symbols") {
                let missing = (try fixture.crashReport(id)?["missingSymbols"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                return !missing.contains("CrashProbeiOS") && !missing.contains("CrashLibiOS")
            }
            let report = try #require(try fixture.crashReport(id))
            #expect((report["summary"] as? String)?.contains("CrashProbeiOS+0x") == false, "\(report)")
        }
        // The frames, checked in-process against llvm-symbolizer on the same DWARF.
        let home = try Home.open(at: fixture.cli.home)
        let locator = try DSYMPathLocator(paths: dSYMs)
        let cache = try SymbolIndexCache(directory: directory.child("cache"))
        var checked = 0
        for id in Int64(1) ... 4 {
            let result = try #require(try CrashStore(home: home).symbolicatedReport(id: id))
            for thread in result.threads {
                for frame in thread.frames {
                    guard let uuid = frame.image?.uuid, let file = locator.files[uuid], let offset = frame.imageOffset else { continue }
                    let address = try cache.index(for: file).textAddress
                        + Symbolicator.lookupOffset(offset, isReturnAddress: frame.frame.number > 0, architecture: file.architecture)
                    let oracle = try await LLVMOracle.frames(object: file.path, architecture: file.architecture.name, address: address)
                    let ours = frame.locations.map { LLVMOracle.Frame(function: $0.rawFunction ?? "??", file: $0.file ?? "??", line: $0.line) }
                    #expect(ours == oracle, "report \(id) frame \(frame.frame.number)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 12)
        withExtendedLifetime(directory) {}
    }

    /// The tester form sends the file as it is; a client appending a CRLF (HockeySDK's multipart
    /// does) sends other bytes of the same crash: one report, two uploads, one group count.
    @Test func theSameCrashFromTheFormAndWithATrailingCRLFIsOneReport() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try fixture.inProcess { $0.crashes.processInBackground = false }
        defer { server.stop() }
        let directory = try TemporaryDirectory("crash-twice")
        let original = try CrashUploads.report("App-309.ips")
        let file = directory.child("App-309.ips")
        try original.write(to: URL(fileURLWithPath: file))
        let withCRLF = directory.child("App-309-crlf.ips")
        try (original + Data("\r\n".utf8)).write(to: URL(fileURLWithPath: withCRLF))

        let form = try await server.fetch("\(server.base)/t/\(fixture.annToken)/crashes", ["-F", "report=@\(file)"])
        #expect(form.text.contains("Received as report 1."))
        let raw = try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(withCRLF)"])
        #expect(raw.status == 202)
        let receipt = try #require(try JSONSerialization.jsonObject(with: raw.body) as? [String: Any])
        #expect(receipt["id"] as? Int == 1 && receipt["duplicate"] as? Bool == true, "\(receipt)")
        #expect(try fixture.crashReports().count == 1)
        #expect(try fixture.crashReport(1)?["uploadCount"] as? Int == 2)
        #expect(try fixture.crashReport(1)?["sha256"] as? String == SHA256.hash([UInt8](original)).hex, "the first arrival's bytes are kept")
        // Another incident of the same crash is another report.
        let other = directory.child("other.ips")
        try CrashIncidents.renumbered(original, 1).write(to: URL(fileURLWithPath: other))
        let second = try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(other)"])
        #expect((try JSONSerialization.jsonObject(with: second.body) as? [String: Any])?["id"] as? Int == 2)
        #expect(try fixture.cli.run("verify").status == 0, "no orphan blob")
        withExtendedLifetime(directory) {}
    }

    @Test func aReportAcknowledgedBeforeAKillIsProcessedAfterTheRestart() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let ips = LocalFixtures.url("symbols/crashes/App-309.ips").path
        let first = try await fixture.serve(["--no-crash-processing"])
        let answer = try await curl("\(first.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(ips)"])
        first.process.send(SIGKILL)
        await first.process.exit()
        #expect(answer.status == 202)
        #expect(try fixture.crashReport(1)?["status"] as? String == "queued", "stored and recorded before the answer")
        #expect(try fixture.crashReport(1)?["sha256"] as? String == SHA256.hash([UInt8](try Data(contentsOf: URL(fileURLWithPath: ips)))).hex)
        let second = try await fixture.serve()
        defer { _ = second.stop() }
        let report = try await fixture.processedReport(1)
        #expect(report["status"] as? String == "partial")
        #expect(try fixture.cli.run("verify").status == 0, "no orphan or missing blob")
    }

    @Test func truncatedDamagedAndOversizedBodiesAreRefusedWithNothingHalfStored() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try fixture.inProcess { $0.crashes.maxReportBytes = 65536; $0.crashes.reportsPerMinute = 0; $0.crashes.burst = 1 }
        defer { server.stop() }
        let directory = try TemporaryDirectory("crash-damage")
        let page = "\(server.base)/t/\(fixture.annToken)/crashes"
        let original = [UInt8](try CrashUploads.report("App-309.ips"))

        // A multipart body cut short never stores its part.
        let boundary = "XyZ"
        let full = CrashUploads.hockeySDKBody(boundary: boundary, parts: [("report", "a.ips", "application/octet-stream", Data(original))])
        let cut = directory.child("cut")
        try full.prefix(full.count - 20).write(to: URL(fileURLWithPath: cut))
        let truncated = try await server.fetch(page, ["-H", "Content-Type: multipart/form-data; boundary=\(boundary)", "--data-binary", "@\(cut)"])
        #expect(truncated.status == 400)
        // Oversized: a raw body and a form part over 64 KiB.
        let big = directory.child("big.ips")
        try Data(original + [UInt8](repeating: 0x20, count: 70_000)).write(to: URL(fileURLWithPath: big))
        #expect(try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(big)"]).status == 413)
        #expect(try await server.fetch(page, ["-F", "report=@\(big)"]).status == 413)
        #expect(try fixture.crashReports().isEmpty)

        // Damaged reports: each is refused as not a report (422) or stored and then processed to
        // a final status; the server keeps answering.
        var stored = Set<Int>()
        for (label, bytes) in damagedVariants(of: original, count: 12) {
            let file = directory.child("damaged")
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let response = try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(file)"])
            #expect([202, 413, 422].contains(response.status), "\(label): \(response.status) \(response.text)")
            if response.status == 202, let id = (try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["id"] as? Int { stored.insert(id) }
            if response.status != 202 {
                let problem = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                #expect((problem?["detail"] as? String)?.count ?? 0 > 20, "\(label): a sentence")
            }
        }
        #expect(!stored.isEmpty)
        try await waitUntil("every stored report is processed") {
            try fixture.crashReports().allSatisfy { ($0["status"] as? String) != "queued" }
        }
        let reports = try fixture.crashReports()
        #expect(Set(reports.compactMap { $0["id"] as? Int }) == stored, "nothing but the acknowledged reports is stored")
        #expect(reports.contains { $0["status"] as? String == "unreadable" && ($0["error"] as? String)?.isEmpty == false })
        #expect(try await server.fetch("\(server.base)/t/\(fixture.annToken)").status == 200)
        #expect(try fixture.cli.run("verify").status == 0)
        withExtendedLifetime(directory) {}
    }

    /// The ingest key ships inside the app: one address spending the key's allowance must not
    /// stop the real devices, each of which has its own.
    @Test func oneAddressExhaustingAKeysAllowanceDoesNotStopAnother() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try fixture.inProcess { $0.crashes.reportsPerMinute = 2; $0.crashes.burst = 2; $0.crashes.processInBackground = false }
        defer { server.stop() }
        let directory = try TemporaryDirectory("crash-rate-address")
        let original = try CrashUploads.report("App-309.ips")
        func send(_ index: Int, from address: String) async throws -> Int {
            let file = directory.child("r\(index).ips")
            try CrashIncidents.renumbered(original, index).write(to: URL(fileURLWithPath: file))
            return try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--interface", address, "--data-binary", "@\(file)"]).status
        }
        var abuser: [Int] = []
        for index in 0 ..< 4 { abuser.append(try await send(index, from: "127.0.0.2")) }
        #expect(abuser == [202, 202, 429, 429], "the burst of 2, then refused")
        #expect(try await send(10, from: "127.0.0.1") == 202, "another address with the same key still sends")
        #expect(try await send(11, from: "127.0.0.3") == 202)
        #expect(try fixture.crashReports().count == 4)
        withExtendedLifetime(directory) {}
    }

    @Test func keysAndTesterLinksAreRateLimitedWithRetryAfter() async throws {
        let fixture = try await WebFixture.make()
        let key = try fixture.crashKey()
        let server = try fixture.inProcess { $0.crashes.reportsPerMinute = 3; $0.crashes.burst = 3 }
        defer { server.stop() }
        let directory = try TemporaryDirectory("crash-rate")
        let original = [UInt8](try CrashUploads.report("App-309.ips"))
        var statuses: [Int] = []
        var retryAfter: String?
        for index in 0 ..< 4 {
            // Another incident each time, so nothing is a duplicate.
            let file = directory.child("r\(index).ips")
            try Data(CrashIncidents.renumbered(original, index)).write(to: URL(fileURLWithPath: file))
            let response = try await server.fetch("\(server.base)/api/v1/crashes?key=\(key)", ["--data-binary", "@\(file)"])
            statuses.append(response.status)
            retryAfter = response.headers["retry-after"] ?? retryAfter
        }
        #expect(statuses == [202, 202, 202, 429])
        #expect(Int(retryAfter ?? "") ?? 0 >= 1)
        #expect(try fixture.crashReports().count == 3, "the refused report was not stored")
        // The tester link has its own bucket.
        let page = "\(server.base)/t/\(fixture.annToken)/crashes"
        var pageStatuses: [Int] = []
        var pageRetryAfter: String?
        for index in 4 ..< 8 {
            let file = directory.child("r\(index).ips")
            try Data(CrashIncidents.renumbered(original, index)).write(to: URL(fileURLWithPath: file))
            let response = try await server.fetch(page, ["-F", "report=@\(file)"])
            pageStatuses.append(response.status)
            pageRetryAfter = response.headers["retry-after"] ?? pageRetryAfter
            if response.status == 429 { #expect(response.text.contains("Wait \(response.headers["retry-after"] ?? "?") seconds")) }
        }
        #expect(pageStatuses == [200, 200, 200, 429])
        #expect(Int(pageRetryAfter ?? "") ?? 0 >= 1)
        withExtendedLifetime(directory) {}
    }
}

/// llvm-symbolizer as the oracle for frames the server symbolicated.
enum LLVMOracle {
    struct Frame: Equatable, CustomStringConvertible {
        var function: String
        var file: String
        var line: Int
        var description: String { "\(function) \(file):\(line)" }
    }

    static let executable: String? = ["/usr/bin/llvm-symbolizer-19", "/usr/lib/llvm-19/bin/llvm-symbolizer"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var available: Bool { executable != nil }

    /// `llvm-symbolizer --inlines --no-demangle` at one address, innermost first.
    static func frames(object: String, architecture: String, address: UInt64) async throws -> [Frame] {
        let tool = try #require(executable)
        let result = try await runTool(tool, ["--inlines", "--no-demangle", "--output-style=JSON", "--default-arch=\(architecture)", "--obj=\(object)",
                                              "0x" + String(address, radix: 16)])
        let entry = try #require(try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]]).first
        let symbols = (entry?["Symbol"] as? [[String: Any]]) ?? []
        let frames = symbols.map { symbol in
            Frame(function: (symbol["FunctionName"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "??",
                  file: (symbol["FileName"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "??", line: symbol["Line"] as? Int ?? 0)
        }
        return frames.count == 1 && frames[0].function == "??" && frames[0].file == "??" ? [] : frames
    }
}
