import Foundation
import Testing
import TestSupport

/// `inspect` of a JSON array of KSCrash reports (what KSCrash's HTTP sink posts): the count and
/// each report read on its own, as the server's intake reads them, with a damaged one named by its
/// position instead of hiding the others.
@Suite struct InspectKSCrashBatchTests {
    typealias Object = [String: Any]

    static func report(_ name: String) throws -> String {
        String(decoding: try LocalFixtures.data("inspect/kscrash/\(name)"), as: UTF8.self)
    }

    @Test func anArrayOfReportsIsSummarisedReportByReportAndADamagedOneIsNamed() throws {
        let (cli, directory) = try InspectCommandTests.runner()
        let batch = "[" + [try Self.report("kscrash-3.4.0-microseconds.json"), try Self.report("kscrash-2.0.json"),
                           #"{"report": {"id": 7}}"#].joined(separator: ",\n") + "]\n"
        let path = try directory.write("reports.json", Array(batch.utf8))

        let (status, objects, stderr) = try InspectCommandTests.inspect(cli, [path])
        #expect(status == 0, "\(stderr)")
        let object = try #require(objects.first)
        #expect(object["kind"] as? String == "kscrash-batch")
        #expect(object["count"] as? Int == 3)
        let reports = try #require(object["reports"] as? [Object])
        #expect(reports.map { $0["index"] as? Int } == [0, 1, 2])
        let first = try #require(reports[0]["report"] as? Object)
        #expect(first["process"] as? String == "App" && first["version"] as? String == "3.4.0")
        #expect(((reports[1]["report"] as? Object)?["version"] as? String) == "2.0")
        #expect(reports[2]["report"] == nil)
        let problem = try #require(reports[2]["problem"] as? String)
        #expect(!problem.isEmpty)

        let text = try cli.run("inspect", path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(": kscrash-batch\n"))
        #expect(text.stdout.contains("Reports:"))
        #expect(text.stdout.contains("  [0] App"))
        #expect(text.stdout.contains("  [2] cannot be read: \(problem)"))
        withExtendedLifetime(directory) {}
    }

    @Test func aTruncatedArrayIsDamagedAndSaysWhere() throws {
        let (cli, directory) = try InspectCommandTests.runner()
        let whole = try Self.report("kscrash-2.0.json")
        let path = try directory.write("cut.json", Array(("[" + whole + ",\n" + whole.prefix(40)).utf8))
        let result = try cli.run("inspect", path)
        #expect(result.status == 65)
        #expect(result.stderr.contains("cut.json"), "\(result.stderr)")
        #expect(result.stderr.contains("kscrash-batch"), "\(result.stderr)")
        withExtendedLifetime(directory) {}
    }
}
