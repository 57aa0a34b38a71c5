#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaJSON

extension WebActions {
    /// Current testers, every device, and the base their page links are built on, read fresh.
    func rosterState(_ request: Request) async throws -> (testers: [Tester], devices: [Device], base: String) {
        let home = self.home
        let (testers, devices) = try await pool.run {
            let roster = Roster(home: home)
            return (try roster.testers(), try roster.devices())
        }
        let settings = try await snapshots.current().snapshot.settings
        return (testers, devices, PublicBase(request: request, publicURL: settings.publicURL).url)
    }

    /// `GET /api/v1/devices/export`.
    func exportDevices(_ request: Request) async throws -> Response {
        let formatName = request.queryValue("format") ?? "tsv"
        guard let format = DeviceListFormat(rawValue: formatName.lowercased()) else {
            throw APIProblem(.badRequest, "format=\(String(formatName.prefix(40))) is not supported; use tsv or deviceids")
        }
        let selection = request.queryValue("devices") ?? "active"
        let state = try await deviceState()
        let chosen: [Device]
        switch selection {
        case "active": chosen = state.devices.filter { $0.status == .active }
        case "pending": chosen = state.pending
        case "not-in-profile": chosen = state.devices.filter { state.inProfile($0) == false }
        default: throw APIProblem(.badRequest, "devices=\(String(selection.prefix(40))) is not supported; use active, pending or not-in-profile")
        }
        let entries = chosen.map { (identifier: $0.identifier, name: $0.name, platform: $0.family.uploadPlatform) }
        let bytes: [UInt8] = switch format {
        case .tsv: Array(DeviceListTSV.write(entries).utf8)
        case .deviceids: Array(try DeviceListPlist.write(entries))
        }
        let type = format == .tsv ? "text/tab-separated-values; charset=utf-8" : "application/xml"
        var response = Response.bytes(bytes, contentType: type)
        response.headers.set("Content-Disposition", "attachment; filename=\"devices.\(format == .tsv ? "txt" : "deviceids")\"")
        return response
    }

    /// Every device, the slot usage and the current ad hoc profile, read fresh.
    func deviceState() async throws -> DeviceState {
        let home = self.home
        let now = self.now
        return try await pool.run {
            let current = try home.reloaded()
            let roster = Roster(home: current)
            let archive = Archive(home: current)
            let stored = try archive.profiles()
            let chosen = stored.first { $0.type == .adHoc && $0.expiresAt > now } ?? stored.first { $0.type == .adHoc }
            let parsed = try chosen.map { try archive.profile(matching: $0.uuid) }
            return DeviceState(devices: try roster.devices(), pending: try roster.pendingDevices(), usage: try roster.usage(now: now), profile: chosen,
                               provisionsAll: parsed?.provisionsAllDevices ?? false,
                               provisioned: Set(parsed?.provisionedDeviceIdentifiers ?? []))
        }
    }
}
