/// The URL scheme of a tester's pages. Paths are fixed: testers' bookmarks and other tools rely on them.
///
/// Everything a tester reaches hangs under `/t/<token>/…`, because iOS's installer sends no cookies:
/// the token in the path is what authorises the manifest, the ipa and the icon.
///
/// - `/t/<token>`: the tester's page (`?before=<id>`: its releases older than release `id`)
/// - `/t/<token>/releases/<id>`: one release
/// - `/t/<token>/releases/<id>/manifest.plist`: the OTA manifest
/// - `/t/<token>/releases/<id>/app.ipa`: the package
/// - `/t/<token>/releases/<id>/icon.png`: the app icon
/// - `/t/<token>/qr.svg`, `/t/<token>/qr.png`: a QR code of the tester's page
public struct TesterURLs: Sendable {
    /// The origin links are built on.
    public let base: PublicBase
    /// The tester's token as it appears in the URL.
    public let token: String

    /// Links for the tester with `token`, on `base`.
    public init(base: PublicBase, token: String) {
        self.base = base
        self.token = token
    }

    /// Route patterns, relative to the tester group `/t/:token`.
    enum Pattern {
        static let group = "/t/:token"
        static let release = "/releases/:id"
        static let manifest = "/releases/:id/manifest.plist"
        static let package = "/releases/:id/app.ipa"
        static let icon = "/releases/:id/icon.png"
        static let qrSVG = "/qr.svg"
        static let qrPNG = "/qr.png"
        static let crashes = "/crashes"
    }

    /// The tester's page.
    public var page: String { "\(base.url)/t/\(token)" }
    /// The tester's page listing the releases older than release `id`.
    public func olderReleases(before id: Int64) -> String { "\(page)?before=\(id)" }
    /// One release's page.
    public func release(_ id: Int64) -> String { "\(page)/releases/\(id)" }
    /// The OTA manifest of a release.
    public func manifest(_ id: Int64) -> String { "\(release(id))/manifest.plist" }
    /// The release's package.
    public func package(_ id: Int64) -> String { "\(release(id))/app.ipa" }
    /// The release's icon.
    public func icon(_ id: Int64) -> String { "\(release(id))/icon.png" }
    /// The QR code of the tester's page, as SVG.
    public var qrSVG: String { "\(page)/qr.svg" }
    /// The QR code of the tester's page, as PNG.
    public var qrPNG: String { "\(page)/qr.png" }
    /// Where the page's crash report form posts.
    public var crashes: String { "\(page)/crashes" }

    /// The link that asks iOS to install from `manifest`: the manifest URL is percent-encoded as a URI
    /// component (everything but RFC 3986 unreserved characters), as Apple's installer expects.
    public static func installLink(manifest: String) -> String {
        "itms-services://?action=download-manifest&url=" + percentEncodeComponent(manifest)
    }

    /// Percent-encodes every byte that is not an RFC 3986 unreserved character (`A-Z a-z 0-9 - . _ ~`).
    public static func percentEncodeComponent(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count * 3)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return out
    }
}
