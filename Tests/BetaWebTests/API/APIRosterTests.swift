import Foundation
import Testing
import TestSupport

/// Testers and devices through the API, as CI scripts and the dashboard use them: the same rules
/// and messages as the CLI, answers the CLI's `--json` agrees with, paging and conditional GETs.
@Suite(.serialized) struct APIRosterTests {
    @Test func aTesterIsAddedShownRegroupedGivenANewLinkAndRemoved() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let body = #"{"name": "Cy Diaz", "email": "cy@example.com", "groups": ["qa", "beta"], "devices": [{"udid": "00008110-0000000000000E05", "model": "iPhone16,1"}]}"#
        let created = try await api(server, "POST", "/testers", token: fixture.write, json: body)
        #expect(created.status == 201, "\(created.text)")
        let tester = try created.object()
        let id = try #require(tester["id"] as? Int)
        #expect(created.headers["location"] == "/api/v1/testers/\(id)")
        #expect(tester["groups"] as? [String] == ["beta", "qa"])
        #expect((tester["devices"] as? [[String: Any]])?.first?["name"] as? String == "Cy Diaz's iPhone")
        let page = try #require(tester["page"] as? String)
        #expect(page.hasPrefix("\(server.base)/t/"))
        // The tester's page works at once, and the CLI sees the same tester.
        #expect(try await server.fetch(page).text.contains("Hi Cy Diaz"))
        let shown = try #require(try cliJSON(fixture.cli, "show-tester", "cy@example.com", "--json") as? [String: Any])
        #expect(shown["id"] as? Int == id && shown["groups"] as? [String] == ["beta", "qa"])

        let fetched = try await api(server, "GET", "/testers/\(id)", token: fixture.read).object()
        #expect(fetched["page"] as? String == page)
        let regrouped = try await api(server, "PUT", "/testers/\(id)/groups", token: fixture.write, json: #"{"groups": ["design"]}"#)
        #expect(try regrouped.object()["groups"] as? [String] == ["design"])
        #expect((try cliJSON(fixture.cli, "show-tester", String(id), "--json") as? [String: Any])?["groups"] as? [String] == ["design"])

        let relinked = try await api(server, "POST", "/testers/\(id)/link", token: fixture.write).object()
        let newPage = try #require(relinked["page"] as? String)
        #expect(newPage != page)
        #expect(try await server.fetch(page).status == 404, "the old link stops working at once")
        #expect(try await server.fetch(newPage).status == 200)

        let removed = try await api(server, "DELETE", "/testers/\(id)", token: fixture.write)
        #expect(removed.status == 204 && removed.body.isEmpty)
        try await api(server, "GET", "/testers/\(id)", token: fixture.read).problem(404, "tester-not-found")
        try await api(server, "DELETE", "/testers/\(id)", token: fixture.write).problem(404, "tester-not-found")
        #expect(try await server.fetch(newPage).status == 404)
    }

    @Test func badTestersAreRefusedWithTheCLIsMessages() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let cliEmail = try fixture.cli.run("add-tester", "Dee", "--email", "not-an-email")
        #expect(cliEmail.status == 65)
        let email = try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Dee", "email": "not-an-email"}"#)
        let problem = try email.problem(422, "invalid-tester")
        #expect("error: \(problem["detail"] as? String ?? "")\n" == cliEmail.stderr)
        let duplicate = try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Ann Two", "email": "ann@example.com"}"#)
        #expect(try duplicate.problem(409, "duplicate-email")["detail"] as? String
                == "email ann@example.com already belongs to tester 1 (Ann Lee); use a different email or update that tester")
        let group = try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Eve", "groups": ["qa/admin"]}"#)
        try group.problem(422, "invalid-tester")
        try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Eve", "group": ["qa"]}"#).problem(400, "invalid-json")
        try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": 7}"#).problem(400, "invalid-json")
        try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Eve""#).problem(400, "invalid-json")
        try await api(server, "POST", "/testers", token: fixture.write, ["-d", "name=Eve"]).problem(415, "unsupported-media-type")
        let udid = try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Eve", "devices": [{"udid": "xyz", "family": "iphone"}]}"#)
        try udid.problem(422, "invalid-udid")
        // A NUL would cut a name short: refused, in a tester's name and in a device's.
        let nul = try await api(server, "POST", "/testers", token: fixture.write, json: #"{"name": "Eve\u0000 Admin"}"#)
        #expect(try nul.problem(422, "invalid-tester")["detail"] as? String
                == #"the tester name "Eve\u0000 Admin" contains a NUL character, which would cut it short; give the name without it"#)
        let device = try await api(server, "POST", "/testers", token: fixture.write,
                                   json: #"{"name": "Eve", "devices": [{"udid": "00008030-0000000000000E05", "name": "Eve's\u0000 iPhone", "family": "iphone"}]}"#)
        #expect(try device.problem(422, "invalid-device")["detail"] as? String
                == #"the device name "Eve's\u0000 iPhone" contains a NUL character, which would cut it short; give the name without it"#)
        // Nothing half-written: none of those testers exists.
        #expect((try cliJSON(fixture.cli, "testers", "--json") as? [String: [[String: Any]]])?["testers"]?.count == 2)
    }

    @Test func theHundredAndFirstIPhoneIsRefusedWith409AndRemovedDevicesKeepTheirSlots() async throws {
        let fixture = try await AdminFixture.make()
        // The fixture has two iPhones (Ann's and Bo's); 98 more fill the family.
        let list = try TemporaryDirectory("devices")
        let lines = (0 ..< 98).map { String(format: "00008030-%016X\tPhone %02d\tios", 0x1000 + $0, $0) }
        try ("Device ID\tDevice Name\tDevice Platform\n" + lines.joined(separator: "\n") + "\n").write(toFile: list.child("devices.txt"), atomically: true, encoding: .utf8)
        try fixture.cli.ok("import-devices", list.child("devices.txt"), "--tester", "bo@example.com", "--family", "iphone")
        let server = try fixture.inProcess()
        defer { server.stop() }
        let next = "00008030-00000000000F0001"
        let cli = try fixture.cli.run("add-device", "bo@example.com", next, "--model", "iPhone15,2")
        #expect(cli.status == 1)
        let refused = try await api(server, "POST", "/devices", token: fixture.write,
                                    json: #"{"tester": "bo@example.com", "udid": "\#(next)", "model": "iPhone15,2"}"#)
        let problem = try refused.problem(409, "device-limit-reached")
        #expect("error: \(problem["detail"] as? String ?? "")\n" == cli.stderr, "the CLI's sentence: \(cli.stderr)")
        #expect(problem["family"] as? String == "iphone" && problem["used"] as? Int == 100 && problem["limit"] as? Int == 100)
        #expect(problem["removedStillCounting"] as? Int == 0 && problem["renews"] as? String != nil)

        let removed = try await api(server, "DELETE", "/devices/00008030-0000000000001000", token: fixture.write)
        #expect(try removed.object()["status"] as? String == "removed")
        let usage = try await api(server, "GET", "/devices", token: fixture.read).object()
        let iphone = try #require((usage["usage"] as? [String: [String: Any]])?["iphone"])
        #expect(iphone["used"] as? Int == 100 && iphone["removed"] as? Int == 1, "a removed device keeps its slot: \(iphone)")
        try await api(server, "POST", "/devices", token: fixture.write,
                      json: #"{"tester": 2, "udid": "\#(next)", "model": "iPhone15,2"}"#).problem(409, "device-limit-reached")
        try await api(server, "DELETE", "/devices/00008030-0000000000001000", token: fixture.write).problem(409, "device-already-removed")
        // An iPad still has room; the tester may be named by id, as a number.
        let ipad = try await api(server, "POST", "/devices", token: fixture.write,
                                 json: #"{"tester": 2, "udid": "00008120-0000000000000F06", "model": "iPad14,3", "name": "Bo's iPad"}"#)
        #expect(ipad.status == 201 && ipad.headers["location"] == "/api/v1/devices/00008120-0000000000000F06")
        #expect(try ipad.object()["family"] as? String == "ipad")
        withExtendedLifetime(list) {}
    }

    @Test func deviceListsPageWithCursorsAndFlagDevicesMissingFromTheProfile() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let whole = try await api(server, "GET", "/devices", token: fixture.read).object()
        let all = try #require(whole["devices"] as? [[String: Any]])
        #expect(all.count == 3 && whole["nextCursor"] == nil)
        #expect((whole["profile"] as? [String: Any])?["name"] as? String == "Beta Ad Hoc")
        let flags = Dictionary(uniqueKeysWithValues: all.map { ($0["udid"] as? String ?? "", $0["inProfile"] as? Bool) })
        #expect(flags["00008030-0000000000000A01"] == true && flags["00008101-0000000000000B02"] == true)
        #expect(flags["00008110-0000000000000D04"] == false, "Bo's iPhone is not in the profile")
        var seen: [String] = []
        var next: String? = "/devices?limit=1"
        var pages = 0
        while let path = next {
            let page = try await api(server, "GET", path, token: fixture.read)
            let object = try page.object()
            seen += (object["devices"] as? [[String: Any]] ?? []).compactMap { $0["udid"] as? String }
            pages += 1
            if let cursor = object["nextCursor"] as? String {
                #expect(page.headers["link"] == "</api/v1/devices?cursor=\(cursor)&limit=1>; rel=\"next\"")
                next = "/devices?limit=1&cursor=\(cursor)"
            } else {
                #expect(page.headers["link"] == nil)
                next = nil
            }
            #expect(pages <= 3)
        }
        #expect(seen == all.compactMap { $0["udid"] as? String }, "pages in order, none repeated or skipped")
        try await api(server, "GET", "/devices?cursor=garbage!", token: fixture.read).problem(400, "invalid-cursor")
        try await api(server, "GET", "/devices?limit=0", token: fixture.read).problem(400, "bad-request")
        try await api(server, "GET", "/devices?limit=501", token: fixture.read).problem(400, "bad-request")

        let tsv = try await api(server, "GET", "/devices/export?devices=not-in-profile", token: fixture.read)
        #expect(tsv.headers["content-disposition"] == "attachment; filename=\"devices.txt\"")
        #expect(tsv.text == "Device ID\tDevice Name\tDevice Platform\n00008110-0000000000000D04\tBo's iPhone\tios\n")
        let every = try await api(server, "GET", "/devices/export", token: fixture.read)
        #expect(every.text == (try fixture.cli.ok("export-devices")))
        let plist = try await api(server, "GET", "/devices/export?format=deviceids", token: fixture.read)
        let decoded = try #require(try PropertyListSerialization.propertyList(from: plist.body, format: nil) as? [String: Any])
        #expect((decoded["Device UDIDs"] as? [[String: Any]])?.count == 3)
        try await api(server, "GET", "/devices/export?format=csv", token: fixture.read).problem(400, "bad-request")
        try await api(server, "GET", "/devices/not-a-udid", token: fixture.read).problem(422, "invalid-udid")
        try await api(server, "GET", "/devices/00008030-00000000000FFFFF", token: fixture.read).problem(404, "device-not-found")
    }

    @Test func readsCarryETagsThatIfNoneMatchTurnsInto304() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let first = try await api(server, "GET", "/testers", token: fixture.read)
        let etag = try #require(first.headers["etag"])
        #expect(first.headers["cache-control"] == "private, no-cache")
        #expect(first.headers["vary"]?.contains("Authorization") == true)
        let again = try await api(server, "GET", "/testers", token: fixture.read, ["-H", "If-None-Match: \(etag)"])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
        // A compressed answer's tag (the compression layer marks it) matches too, and so does a list of tags.
        let plain = try #require(try await api(server, "GET", "/openapi.json", token: nil).headers["etag"])
        let gzipped = try await api(server, "GET", "/openapi.json", token: nil, ["-H", "Accept-Encoding: gzip"])
        #expect(gzipped.headers["content-encoding"] == "gzip")
        let gzTag = try #require(gzipped.headers["etag"])
        #expect(gzTag != plain)
        let revalidated = try await api(server, "GET", "/openapi.json", token: nil, ["-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \"x\", \(gzTag)"])
        #expect(revalidated.status == 304)
        _ = try await api(server, "PUT", "/testers/1/groups", token: fixture.write, json: #"{"groups": ["qa", "design"]}"#)
        let changed = try await api(server, "GET", "/testers", token: fixture.read, ["-H", "If-None-Match: \(etag)"])
        #expect(changed.status == 200 && changed.headers["etag"] != etag)
    }

    @Test func unknownPathsAndMethodsAreProblemsToo() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        try await api(server, "GET", "/nothing/here", token: fixture.read).problem(404, "not-found")
        let method = try await api(server, "PATCH", "/testers", token: fixture.read)
        try method.problem(405, "method-not-allowed")
        #expect(method.headers["allow"] == "GET, HEAD, POST, OPTIONS")
        let error = try await api(server, "GET", "/releases/abc", token: fixture.read).problem(404, "release-not-found")
        #expect((error["requestId"] as? String)?.count == 16)
        // Outside the API, a missing page is still the HTML page.
        let page = try await server.fetch("\(server.base)/nothing")
        #expect(page.status == 404 && page.headers["content-type"] == "text/html; charset=utf-8")
    }
}
