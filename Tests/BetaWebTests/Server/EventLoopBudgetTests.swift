import Foundation
import Synchronization
import AppleFormats
import Testing
import TestSupport
@testable import BetaKit
@testable import BetaServer
@testable import BetaWeb

/// No route that runs on an event loop does heavy work there. The application is served in
/// process with one loop whose handler work is measured in thread CPU time (so a busy machine
/// does not inflate it), and every `.eventLoop` route that takes a body (found in the router, so a
/// route added later is covered) gets a large one. The crash intake routes get large bodies that
/// are real reports, which recognising, splitting or parsing on the loop would take seconds of CPU
/// for; the budget is far above what streaming a body and answering cost.
@Suite(.serialized) struct EventLoopBudgetTests {
    /// Thread CPU time one request's handler may spend on the loop, summed over its slices.
    static let budget: Duration = .milliseconds(250)

    /// The CPU time the loop spent running handler work since the last `take()`.
    final class LoopMeter: Sendable {
        private let spent = Mutex<Duration>(.zero)
        func add(_ time: Duration) { spent.withLock { $0 += time } }
        func take() -> Duration { spent.withLock { value in defer { value = .zero }; return value } }
    }

    @Test func noEventLoopRouteSpendsMoreThanItsBudgetOnTheLoopForALargeBody() async throws {
        let directory = try TemporaryDirectory("loop-budget")
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        let token = try WebFixture.token(cli.ok("add-tester", "Ann Lee", "--email", "ann@example.com", "--json"))
        let keyObject = try #require(try JSONSerialization.jsonObject(with: Data(cli.ok("crash-key", "create", "com.example.beta", "--json").utf8)) as? [String: Any])
        let key = try #require(keyObject["key"] as? String)

        var web = WebConfiguration()
        web.crashes.processInBackground = false
        web.crashes.reportsPerMinute = 0
        web.deliversWebhooks = false
        let home = try Home.open(at: cli.home)
        let app = try BetaWebApplication(home: home, configuration: web)
        app.start()
        defer { app.stop() }
        let meter = LoopMeter()
        var configuration = ServerConfiguration()
        configuration.listen = [ListenAddress(host: "127.0.0.1", port: 0)]
        configuration.eventLoops = 1
        configuration.temporaryDirectory = home.temporaryPath
        configuration.loopWorkObserver = { meter.add($0) }
        let server = try HTTPServer(configuration: configuration, router: app.router, middleware: app.middleware, log: .discarding)
        let port = try #require(try server.start().first).port
        let base = "http://127.0.0.1:\(port)"

        let bodies = try Bodies(directory: directory, maxReportBytes: web.crashes.maxReportBytes)
        let routes = app.router.routes.filter { $0.options.execution == .eventLoop && [.post, .put, .patch, .delete].contains($0.method) }
        let crashRoutes: Set<String> = ["/api/kscrash/:key", "/api/2/apps/:key/crashes", "/api/2/apps/:key/crashes/upload", "/api/v1/crashes", "/t/:token/crashes"]
        #expect(crashRoutes.isSubset(of: Set(routes.map(\.pattern))), "the crash intake routes are found among \(routes.map(\.pattern))")
        for route in routes {
            var path = route.pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
                switch segment {
                case ":key": key
                case ":token": token
                default: segment.hasPrefix(":") || segment.hasPrefix("*") ? "1" : String(segment)
                }
            }.joined(separator: "/")
            let arguments: [String]
            switch route.pattern {
            case "/api/kscrash/:key": arguments = ["-F", "reports=@\(bodies.kscrashArray);type=application/json"]
            case "/api/2/apps/:key/crashes": arguments = ["-F", "xml=@\(bodies.hockeyXML);type=text/xml"]
            case "/api/2/apps/:key/crashes/upload": arguments = ["-F", "log=@\(bodies.crashText);type=text/plain"]
            case "/api/v1/crashes":
                path += "?key=\(key)&name=large.json"
                arguments = ["-H", "Content-Type: application/octet-stream", "--data-binary", "@\(bodies.paddedKSCrash)"]
            case "/t/:token/crashes": arguments = bodies.testerFiles.flatMap { ["-F", "report=@\($0);type=application/json"] }
            default:
                // Everything else gets as large a body as it takes (up to 4 MB) of JSON; most refuse
                // it (no session, no token), which is what a stranger's large post costs them.
                let limit = min(route.options.bodyLimit ?? configuration.limits.bodyBytes, 4 << 20)
                arguments = ["-H", "Content-Type: application/json", "--data-binary", "@\(try bodies.generic(size: Int(limit)))"]
            }
            _ = meter.take()
            let response = try await curl(base + path, ["--max-time", "600", "-X", route.method.rawValue] + arguments)
            let spent = meter.take()
            if crashRoutes.contains(route.pattern) {
                #expect((200 ..< 300).contains(response.status), "\(route.pattern) took the large real reports: \(response.status) \(response.text.prefix(300))")
            }
            #expect(spent <= Self.budget, "\(route.method.rawValue) \(route.pattern) spent \(spent) of CPU on the event loop (budget \(Self.budget)); answered \(response.status)")
        }
        server.shutdown(gracePeriod: .seconds(5))
        await server.waitUntilStopped()
        withExtendedLifetime(directory) {}
    }

    /// Large request bodies made of real reports, written once.
    struct Bodies {
        /// KSCrash's sink: a JSON array of a thousand real KSCrash reports (6 MB).
        var kscrashArray: String
        /// HockeySDK: a `<crashes>` document of as many real crashes as it may hold, about 8 MB.
        var hockeyXML: String
        /// A real text crash report made about 8 MB long by its thread list.
        var crashText: String
        /// A real KSCrash report with about 8 MB of extra JSON (recognising it decodes all of it).
        var paddedKSCrash: String
        /// Four padded KSCrash reports for the tester page, 8 MB in all.
        var testerFiles: [String]
        let directory: TemporaryDirectory

        init(directory: TemporaryDirectory, maxReportBytes: Int64) throws {
            func write(_ name: String, _ bytes: [UInt8]) throws -> String {
                let path = directory.child(name)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                return path
            }
            let kscrash = [UInt8](try LocalFixtures.data("inspect/kscrash/kscrash-3.4.0-microseconds.json"))
            let trimmedKSCrash = Array(kscrash.reversed().drop { $0 == 0x0A || $0 == 0x20 }.reversed())
            // Reports differ by an incident field so none is a duplicate of another.
            var array: [UInt8] = Array("[".utf8)
            let count = min(KSCrashBatch.maxReports, Int(maxReportBytes * 3) / (trimmedKSCrash.count + 64))
            for index in 0 ..< count {
                if index > 0 { array.append(UInt8(ascii: ",")) }
                array += Array(trimmedKSCrash.dropLast()) + Array(#","betactl_test_index":\#(index)}"#.utf8)
            }
            array += Array("]".utf8)
            kscrashArray = try write("kscrash-array.json", array)

            // The most crashes betactl takes in one HockeySDK upload (100), each log made long by its thread list.
            let frames = String(repeating: "0   App                           \t0x0000000104a2c0b8 0x104a28000 + 16568\n", count: 1000)
            let xml = String(decoding: try LocalFixtures.data("inspect/hockeyapp/crash-upload.xml"), as: UTF8.self)
            let crash = try #require(xml.range(of: "<crash>").flatMap { start in xml.range(of: "</crash>").map { String(xml[start.lowerBound ..< $0.upperBound]) } })
            let longCrash = crash.replacingOccurrences(of: "]]></log>", with: "\nThread 9:\n" + frames + "]]></log>")
            hockeyXML = try write("hockey.xml", Array(("<crashes>" + String(repeating: longCrash, count: 100) + "</crashes>").utf8))

            let legacy = String(decoding: try LocalFixtures.data("symbols/crashes/App-legacy.crash"), as: UTF8.self)
            let filler = String(repeating: "0   App                           \t0x0000000104a2c0b8 0x104a28000 + 16568\n", count: Int(maxReportBytes) * 3 / 4 / 80)
            crashText = try write("large.crash", Array((legacy + "\nThread 9:\n" + filler).utf8))

            let padding = Array(#","betactl_padding":[\#(String(repeating: "{\"frame\":[1,2,3,\"text\"]},", count: Int(maxReportBytes) * 3 / 4 / 26))0]}"#.utf8)
            let padded = Array(trimmedKSCrash.dropLast()) + padding
            paddedKSCrash = try write("padded-kscrash.json", padded)
            // The page takes the report field's limit in all: four reports of a fifth of it each.
            let pagePadding = Array(#","betactl_padding":[\#(String(repeating: "{\"frame\":[1,2,3,\"text\"]},", count: Int(maxReportBytes) / 5 / 26))0]}"#.utf8)
            testerFiles = try (0 ..< 4).map { index in
                try write("tester-\(index).json", Array(trimmedKSCrash.dropLast()) + Array(#","betactl_test_index":\#(index)"#.utf8) + pagePadding)
            }
            self.directory = directory
        }

        /// A JSON array of `size` bytes, for routes other than the crash intake.
        func generic(size: Int) throws -> String {
            let path = directory.child("generic-\(size).json")
            guard !FileManager.default.fileExists(atPath: path) else { return path }
            let element = Array(#"{"a":[1,2,3]},"#.utf8)
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            bytes.reserveCapacity(size)
            while bytes.count + element.count + 2 <= size { bytes += element }
            bytes += Array("0]".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}
