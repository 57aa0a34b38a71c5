import BetaKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A betactl process killed with SIGKILL at any moment leaves a consistent home. The sweeps wait
/// out their delays on threads of their own (`blocking`), not on the cooperative pool.
@Suite struct CrashConsistencyTests {
    @Test func killingAnImportAtAnyMomentLeavesAllOrNothing() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try DeviceFile.large(count: 700).write(toFile: dir.child("big.txt"), atomically: true, encoding: .utf8)
        var killedMidway = 0
        // Delays sweep process start-up, parsing, the open transaction and the commit.
        for delay in stride(from: 0, through: 300_000, by: 12_000) {
            let arguments = ["import-devices", dir.child("big.txt")]
            let killed = try await blocking { try cli.killed(arguments, afterMicroseconds: delay) }
            let home = try Home.open(at: dir.child("home"))
            #expect(try home.store.integrityProblems().isEmpty)
            let devices = try Roster(home: home).devices().count
            #expect(devices == 0 || devices == 700, "after a kill at \(delay)µs the roster holds \(devices) devices")
            if devices == 700 { break }
            if killed { killedMidway += 1 }
        }
        #expect(killedMidway > 0, "no run was actually killed; the sweep proves nothing")
        // The store stays usable: the import completes (or was already complete).
        let finish = try cli.run("import-devices", dir.child("big.txt"))
        #expect(finish.status == 0)
        #expect(try Roster(home: Home.open(at: dir.child("home"))).devices().count == 700)
    }

    @Test func killingAddTesterNeverLeavesATesterWithoutTheirDevices() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        var killedMidway = 0
        for delay in stride(from: 0, through: 80_000, by: 4_000) {
            let udids = (0 ..< 3).map { String(format: "00008030-%08X%08X", delay, $0) }
            let arguments = ["add-tester", "T\(delay)", "--family", "iphone"] + udids.flatMap { ["--device", $0] }
            if try await blocking({ try cli.killed(arguments, afterMicroseconds: delay) }) {
                killedMidway += 1
            }
        }
        #expect(killedMidway > 0, "no run was actually killed; the sweep proves nothing")
        let home = try Home.open(at: dir.child("home"))
        #expect(try home.store.integrityProblems().isEmpty)
        let roster = Roster(home: home)
        let devices = try roster.devices()
        for tester in try roster.testers() {
            #expect(devices.filter { $0.testerID == tester.id }.count == 3)
        }
        #expect(devices.count == (try roster.testers().count) * 3)
    }
}
