@testable import BetaKit
import Foundation
import Testing
import TestSupport

/// Values from outside (a tester's name, a device's, a crash report's process, an app's name, a
/// profile's) carry terminal control sequences: a screen clear, a window-title sequence, a bell,
/// a carriage return. No text listing writes them raw; each shows them escaped, and JSON output
/// escapes them as JSON does.
@Suite struct TerminalSafetyTests {
    /// ESC[2J clears the screen, ESC]0;…BEL sets the window title, CR overwrites the line.
    static let hostile = "Eve\u{1B}[2J\u{1B}]0;owned\u{07}\rX"
    /// What the CLI prints for it.
    static let shown = #"Eve\u001B[2J\u001B]0;owned\u0007\u000DX"#
    /// The same characters escaped in a JSON file.
    static let hostileJSON = #"Eve\u001b[2J\u001b]0;owned\u0007\rX"#

    /// Fails unless `output` has no control character but newline and tab, and shows the value.
    static func expectSafe(_ output: String, showing: Bool = true, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = output.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F ... 0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(what) wrote control characters \(controls.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
        if showing { #expect(output.contains(shown), "\(what) shows the value escaped: \(output.prefix(600))", sourceLocation: sourceLocation) }
    }

    @Test(.enabled(if: OpenSSLTool.available)) func escapeSequencesInEveryListingAreShownEscaped() async throws {
        let dir = try TemporaryDirectory("terminal")
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("add-tester", Self.hostile, "--email", "eve@example.com")
        try cli.ok("add-device", "eve@example.com", "00008030-0000000000000A01", "--model", "iPhone15,2", "--name", Self.hostile)

        // A crash report whose process, app and thread names are hostile.
        let ips = String(decoding: try LocalFixtures.data("symbols/crashes/App-309.ips"), as: UTF8.self)
            .replacingOccurrences(of: #""app_name": "App""#, with: #""app_name": "\#(Self.hostileJSON)""#)
            .replacingOccurrences(of: #""name": "App"}"#, with: #""name": "\#(Self.hostileJSON)"}"#)
            .replacingOccurrences(of: #""procName": "App""#, with: #""procName": "\#(Self.hostileJSON)""#)
        #expect(ips.contains(Self.hostileJSON))
        let crash = dir.child("hostile.ips")
        try Data(ips.utf8).write(to: URL(fileURLWithPath: crash))
        try cli.ok("add-crash", crash, "--tester", "eve@example.com", "--description", Self.hostile)

        // An app whose display name and version are hostile, and a profile whose name is.
        let ipa = dir.child("hostile.ipa")
        let script = """
            import plistlib, sys, zipfile
            source = zipfile.ZipFile(sys.argv[1]); out = zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED)
            for info in source.infolist():
                data = source.read(info.filename)
                if info.filename == "Payload/Beta.app/Info.plist":
                    plist = plistlib.loads(data); plist["CFBundleDisplayName"] = sys.argv[3]; plist["CFBundleShortVersionString"] = sys.argv[3]
                    data = plistlib.dumps(plist, fmt=plistlib.FMT_BINARY)
                out.writestr(info, data)
            out.close()
            """
        let edited = try await runTool("python3", ["-c", script, LocalFixtures.url("formats/app/Beta.ipa").path, ipa, Self.hostile])
        #expect(edited.status == 0, "\(edited.error)")
        try cli.ok("release", ipa, "--allow-missing-symbols", "--notes", Self.hostile)
        let profile = try await Self.hostileProfile(in: dir)
        try cli.ok("import-profile", profile)

        // An open device request from Eve, as her device's enrolment leaves it (a device's own name
        // cannot carry control characters: the reply is refused; the tester's name can).
        let home = try Home.open(at: cli.home)
        try home.store.write { db in
            try db.query("""
                INSERT INTO device_requests (udid, tester_id, family, product, device_name, requested_at)
                VALUES ('00008030-0000000000000A02', 1, 'iphone', 'iPhone15,2', 'Eve phone', '2026-11-10T10:00:00Z')
                """)
        }

        let listings: [[String]] = [["crashes"], ["show-crash", "1"], ["testers"], ["show-tester", "1"], ["devices"], ["releases"], ["profiles"],
                                    ["inspect", crash], ["inspect", profile], ["inspect", ipa], ["show-release", "1"], ["crash-groups"],
                                    ["symbolicate", crash], ["requests"]]
        for arguments in listings {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            Self.expectSafe(result.stdout, showing: arguments != ["crash-groups"], arguments.joined(separator: " "))
            Self.expectSafe(result.stderr, showing: false, arguments.joined(separator: " ") + " (stderr)")
        }
        // On a terminal, the only escapes are the CLI's own styling (bold headers); the pty turns
        // the newlines it writes into CR LF.
        let onTerminal = try cli.runOnTerminal(["testers"]).replacingOccurrences(of: "\r\n", with: "\n")
        #expect(onTerminal.contains("\u{1B}[1m") && onTerminal.contains(Self.shown), "\(onTerminal)")
        Self.expectSafe(onTerminal.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: ""), "testers on a terminal")

        // The raw report is written as it was received, when asked for by name.
        #expect(try cli.run("show-crash", "1", "--raw").stdout == ips)

        // JSON escapes them as JSON does, and reads back as the value itself.
        for arguments in [["testers", "--json"], ["devices", "--json"], ["show-crash", "1", "--json"], ["releases", "--json"], ["profiles", "--json"]] {
            let output = try cli.run(arguments).stdout
            Self.expectSafe(output, showing: false, arguments.joined(separator: " "))
            #expect(output.lowercased().contains(#"\u001b[2j"#), "\(arguments): \(output.prefix(300))")
            #expect(try Self.strings(in: JSONSerialization.jsonObject(with: Data(output.utf8))).contains { $0.contains(Self.hostile) }, "\(arguments)")
        }
        withExtendedLifetime(dir) {}
    }

    /// Every string in a decoded JSON value.
    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap(strings(in:))
        case let object as [String: Any]: object.values.flatMap(strings(in:))
        default: []
        }
    }

    /// The ad hoc fixture profile named `hostile`, its plist binary (XML cannot hold an ESC), signed
    /// again by a self-made identity.
    static func hostileProfile(in dir: TemporaryDirectory) async throws -> String {
        let plist = dir.child("profile.plist")
        _ = try await OpenSSLTool.run(["cms", "-verify", "-noverify", "-inform", "DER", "-in",
                                       LocalFixtures.url("formats/profiles/beta_adhoc.mobileprovision").path, "-out", plist])
        let edited = try await runTool("python3", ["-c", """
            import plistlib, sys
            plist = plistlib.load(open(sys.argv[1], "rb")); plist["Name"] = sys.argv[2]
            open(sys.argv[1], "wb").write(plistlib.dumps(plist, fmt=plistlib.FMT_BINARY))
            """, plist, hostile])
        #expect(edited.status == 0, "\(edited.error)")
        let identity = try await OpenSSLTool.makeIdentity(in: dir)
        let profile = dir.child("hostile.mobileprovision")
        _ = try await OpenSSLTool.run(["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", plist,
                                       "-signer", identity.certificate, "-inkey", identity.key, "-out", profile])
        return profile
    }
}
