/// What kind of device and browser a page is being shown on, judged from the User-Agent the way
/// distribution services do it. The page is correct without this (it works without JavaScript and
/// shows both the Install button and the QR code when unsure); the guess only decides what comes first.
public enum ClientKind: String, Sendable, Equatable {
    /// An iPhone or iPod touch (Safari or another iOS browser).
    case iPhone
    /// An iPad that says so (iPadOS 12 and earlier, or "Request Mobile Website").
    case iPad
    /// A Mac user agent: a real Mac, or iPadOS 13+ Safari, which asks for desktop sites; the page's
    /// script tells them apart (`navigator.maxTouchPoints > 1`).
    case macOrIPad
    /// Any other desktop or phone (Windows, Linux, Android, …): show the QR code to scan.
    case other

    /// Classifies a User-Agent header value.
    public init(userAgent: String?) {
        guard let agent = userAgent else {
            self = .other
            return
        }
        if agent.contains("iPhone") || agent.contains("iPod") {
            self = .iPhone
        } else if agent.contains("iPad") {
            self = .iPad
        } else if agent.contains("Macintosh") {
            self = .macOrIPad
        } else {
            self = .other
        }
    }

    /// Whether the client may be an iOS device that can install from the page.
    public var mayInstall: Bool { self != .other }

    /// Whether the page should lead with the QR code (a computer to scan from).
    public var leadsWithQRCode: Bool { self == .other || self == .macOrIPad }

    /// In-app browsers (WeChat, DingTalk, Facebook, Instagram, LINE, …) cannot hand an
    /// `itms-services` link to iOS: testers must open the page in Safari.
    public static func isInAppBrowser(_ userAgent: String?) -> Bool {
        guard let agent = userAgent else { return false }
        return inAppMarkers.contains { agent.contains($0) }
    }

    private static let inAppMarkers = [
        "MicroMessenger", "DingTalk", "FBAN/", "FBAV/", "FB_IAB", "Instagram", " Line/", "Lark/", "Feishu",
        "QQ/", "Weibo", "AliApp", "Twitter", "Snapchat", "LinkedInApp", "TikTok", "musical_ly", "BytedanceWebview",
    ]
}
