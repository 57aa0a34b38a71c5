import BetaKit
import Foundation
import Testing
import TestSupport

/// Several betactl processes writing to one home at once, as the CLI and a running server will.
@Suite struct ConcurrentWriteTests {
    @Test func parallelProcessesAddingTestersLoseNoUpdate() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init")
        let count = 24
        var processes: [(ChildProcess, Pipe)] = []
        for index in 0 ..< count {
            let err = Pipe()
            processes.append((try cli.start(["add-tester", "Tester \(index)", "--email", "t\(index)@example.com"], stderr: err), err))
        }
        // The processes are waited for on a thread of their own, not on the cooperative pool.
        let failures = try await blocking { [processes] () -> [String] in
            var failures: [String] = []
            for (process, err) in processes {
                let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                if process.terminationStatus != 0 { failures.append(message) }
            }
            return failures
        }
        #expect(failures.isEmpty, "\(failures)")
        let testers = try Roster(home: Home.open(at: dir.child("home"))).testers()
        #expect(testers.count == count)
        #expect(Set(testers.compactMap(\.email)).count == count)
    }

    @Test func racingForTheLastSlotLetsExactlyOneProcessWin() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init", "--membership-renewal", "2027-03-01")
        try await cli.okAsync("add-tester", "Ann")
        let tsv = (0 ..< 99).map { String(format: "00008030-%016X\tiPhone %d\tios", $0, $0) }
        try ("Device ID\tDevice Name\tDevice Platform\n" + tsv.joined(separator: "\n") + "\n").write(toFile: dir.child("d.txt"), atomically: true, encoding: .utf8)
        try await cli.okAsync("import-devices", dir.child("d.txt"), "--tester", "Ann")
        var processes: [(ChildProcess, Pipe)] = []
        for index in 0 ..< 6 {
            let err = Pipe()
            let udid = String(format: "00008110-%016X", index)
            processes.append((try cli.start(["add-device", "Ann", udid, "--family", "iphone"], stderr: err), err))
        }
        let (statuses, messages) = try await blocking { [processes] () -> ([Int32], [String]) in
            var statuses: [Int32] = []
            var messages: [String] = []
            for (process, err) in processes {
                messages.append(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
                process.waitUntilExit()
                statuses.append(process.terminationStatus)
            }
            return (statuses, messages)
        }
        #expect(statuses.filter { $0 == 0 }.count == 1)
        #expect(statuses.filter { $0 == 1 }.count == 5)
        #expect(messages.allSatisfy { !$0.contains("locked") && !$0.contains("busy") })
        #expect(messages.filter { $0.contains("all 100 of 100 iPhone slots") }.count == 5)
        let usage = try Roster(home: Home.open(at: dir.child("home"))).usage(now: Date())
        #expect(usage.families.first { $0.family == .iphone }?.used == 100)
    }

    @Test func writersWaitForALongTransactionInsteadOfFailing() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init")
        try DeviceFile.large(count: 700).write(toFile: dir.child("big.txt"), atomically: true, encoding: .utf8)
        let importer = try cli.start(["import-devices", dir.child("big.txt")])
        var adders: [(ChildProcess, Pipe)] = []
        for index in 0 ..< 8 {
            let err = Pipe()
            adders.append((try cli.start(["add-tester", "Writer \(index)"], stderr: err), err))
        }
        #expect(await importer.exit() == .exited(0))
        let outcomes = try await blocking { [adders] () -> [(Int32, String)] in
            adders.map { process, err in
                let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return (process.terminationStatus, message)
            }
        }
        for (status, message) in outcomes {
            #expect(status == 0, "\(message)")
        }
        let roster = Roster(home: try Home.open(at: dir.child("home")))
        #expect(try roster.testers().count == 8)
        #expect(try roster.devices().count == 700)
    }
}

/// Generated device files for process tests.
enum DeviceFile {
    /// `count` devices (at most 700) spread over families so no limit is hit: 100 per family, Macs last.
    static func large(count: Int) -> String {
        let kinds = ["iPhone", "iPad", "iPod", "Watch", "Apple TV", "Vision"]
        var lines = ["Device ID\tDevice Name\tDevice Platform"]
        for index in 0 ..< count {
            let group = index / 100
            if group < kinds.count {
                lines.append(String(format: "%08X-%016X\t%@ %d\tios", 0x8000 + group, index, kinds[group], index))
            } else {
                lines.append(String(format: "%08X-0000-4000-8000-%012X\tMac %d\tmac", 0xA000_0000 + index, index, index))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
