#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import QRCode

extension TesterController {
    /// `GET /t/<token>/releases/<id>/app.ipa`: exactly the released bytes, streamed from the blob store
    /// with sendfile, with Range/206 and ETag. A completed download is recorded for the tester.
    func package(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let release = try offeredRelease(request, context)
        let path = Archive(home: home).blobPath(release.packageBlob)
        var response = try await pool.run { try FileResponder().respond(to: request, path: path, contentType: "application/octet-stream") }
        response.headers.set("Content-Disposition", "attachment; filename=\"\(Self.packageFileName(release))\"")
        guard request.method == .get, Self.coversEnd(response) else { return response }
        let agent = request.headers["User-Agent"]
        let device = InstallerAgent(userAgent: agent).device(among: context.snapshot.devices(of: context.tester))
        let record = (release: release.id, tester: context.tester.id, udid: device?.identifier.value)
        let pool = self.pool
        let home = self.home
        let now = configuration.now
        response.onFinish = { outcome in
            guard outcome == .delivered else { return }
            Task {
                _ = try? await pool.run {
                    try Archive(home: home).recordDownload(releaseID: record.release, testerID: record.tester, udid: record.udid,
                                                           userAgent: agent, at: now())
                }
            }
        }
        return response
    }

    /// Whether the response carries the file's last byte: a whole 200, or a single range reaching the end.
    static func coversEnd(_ response: Response) -> Bool {
        if response.status == .ok { return true }
        guard response.status.code == 206, let range = response.headers["Content-Range"],
              let slash = range.lastIndex(of: "/"), let dash = range.lastIndex(of: "-"), dash < slash,
              let last = Int64(range[range.index(after: dash)..<slash]),
              let total = Int64(range[range.index(after: slash)...]) else { return false }
        return last == total - 1
    }

    /// `App-1.4-213.ipa`: a name made of safe characters only, for Content-Disposition.
    static func packageFileName(_ release: Release) -> String {
        let parts = [release.displayName ?? release.bundleID, release.version, release.build].compactMap { $0 }
        let name = parts.joined(separator: "-").map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") ? $0 : "_" }
        return String(name.prefix(100)) + ".ipa"
    }

    /// `GET /t/<token>/releases/<id>/icon.png`: the app icon, already converted from CgBI at release time.
    func icon(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let release = try offeredRelease(request, context)
        guard let icon = release.iconBlob else { throw WebError.notFound }
        let path = Archive(home: home).blobPath(icon)
        return try await pool.run { try FileResponder().respond(to: request, path: path, contentType: "image/png") }
    }

    /// `GET /t/<token>/qr.svg` and `qr.png`: a QR code of the tester page's own absolute URL.
    func qrCode(_ request: Request, _ context: TesterRequest, png: Bool) async throws -> Response {
        let key = PageCache.Key(kind: png ? "qr.png" : "qr.svg", testerID: context.tester.id, base: context.urls.base.url)
        let type = png ? "image/png" : "image/svg+xml"
        if let cached = pages.get(key, generation: context.generation) { return .bytes(cached, contentType: type) }
        let code = try QRCode.encode(Array(context.urls.page.utf8))
        let bytes = png ? try code.png(scale: 8) : Array(try code.svg(moduleSize: 8).utf8)
        pages.put(key, generation: context.generation, bytes: bytes)
        return .bytes(bytes, contentType: type)
    }
}
