#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import Mustache

/// What a page needs beyond its own content: brand, links to assets, and what the browser is.
struct PageChrome: Sendable, MustacheRepresentable {
    var title: String
    var brandName: String
    var assets: AssetLinks
    var client: ClientKind
    var inAppBrowser: Bool
    var insecure: Bool
    /// Seconds after which the page reloads itself (a meta refresh, so it works without JS), while
    /// work it reports is pending; nil for no reload.
    var refreshSeconds: Int? = nil

    var mustacheValue: MustacheValue {
        ["title": .string(title), "brandName": .string(brandName),
         "css": .string(assets.css), "brandCSS": .string(assets.brandCSS), "js": .string(assets.js),
         "favicon": .string(assets.favicon), "client": .string(client.rawValue),
         "isIPhone": .bool(client == .iPhone), "isIPad": .bool(client == .iPad),
         "isMacOrIPad": .bool(client == .macOrIPad), "isOther": .bool(client == .other),
         "mayInstall": .bool(client.mayInstall), "leadsWithQRCode": .bool(client.leadsWithQRCode),
         "inAppBrowser": .bool(inAppBrowser), "insecure": .bool(insecure),
         "refreshSeconds": refreshSeconds.map { .string(String($0)) } ?? .null]
    }
}

/// Absolute links to the static assets, with a content hash so browsers refetch after a change.
struct AssetLinks: Sendable {
    var css: String
    var brandCSS: String
    var js: String
    var favicon: String
    var placeholderIcon: String
}

/// The tester's page: who they are, their devices, and the newest releases offered to them, with a
/// link to older ones (`?before=<id>`: the releases older than release `id`, a page at a time).
struct TesterPage: Sendable, MustacheRepresentable {
    /// How many releases one page lists.
    static let pageSize = 10

    var chrome: PageChrome
    var testerName: String
    var pageURL: String
    var qrSVG: String
    var qrPNG: String
    var devices: [DeviceRow]
    var releases: [ReleaseCard]
    /// The page of releases older than the last one listed, when there are any.
    var olderURL: String?
    /// The first page, when this one lists older releases.
    var newestURL: String?
    var enrollURL: String?
    /// The crash report form and the tester's reports, when the page offers them.
    var crashes: CrashSection?

    init(snapshot: DistributionSnapshot, tester: Tester, urls: TesterURLs, chrome: PageChrome, enrollURL: String?, now: Date,
         before: Int64? = nil) {
        self.chrome = chrome
        testerName = tester.name
        pageURL = urls.page
        qrSVG = urls.qrSVG
        qrPNG = urls.qrPNG
        self.enrollURL = enrollURL
        let offered = snapshot.releases(offeredTo: tester)
        let newest = offered.first
        devices = snapshot.devices(of: tester).map { device in
            DeviceRow(device: device, newest: newest, coverage: newest.flatMap { snapshot.coverage[$0.id] },
                      provisioning: snapshot.provisioning(of: device))
        }
        if devices.contains(where: \.isPending) { self.chrome.refreshSeconds = DeviceRow.refreshSeconds }
        // Releases come newest (highest id) first, so a cursor of ids pages stably as releases are added or revoked.
        let older = before.map { cursor in offered.filter { $0.id < cursor } } ?? offered
        let shown = older.prefix(Self.pageSize)
        olderURL = older.count > shown.count ? shown.last.map { urls.olderReleases(before: $0.id) } : nil
        newestURL = before == nil ? nil : urls.page
        releases = shown.map {
            ReleaseCard(release: $0, snapshot: snapshot, tester: tester, urls: urls, client: chrome.client,
                        placeholderIcon: chrome.assets.placeholderIcon, now: now)
        }
    }

    var mustacheValue: MustacheValue {
        ["page": chrome.mustacheValue, "testerName": .string(testerName), "pageURL": .string(pageURL),
         "qrSVG": .string(qrSVG), "qrPNG": .string(qrPNG),
         "devices": .list(devices.map(\.mustacheValue)), "hasDevices": .bool(!devices.isEmpty),
         "releases": .list(releases.map(\.mustacheValue)), "hasReleases": .bool(!releases.isEmpty),
         "olderURL": olderURL.map(MustacheValue.string) ?? .null, "newestURL": newestURL.map(MustacheValue.string) ?? .null,
         "enrollURL": enrollURL.map(MustacheValue.string) ?? .null, "crashes": crashes?.mustacheValue ?? .null]
    }
}

/// One release's own page.
struct ReleasePage: Sendable, MustacheRepresentable {
    var chrome: PageChrome
    var testerName: String
    var testerPageURL: String
    var release: ReleaseCard
    var qrSVG: String
    var enrollURL: String?

    var mustacheValue: MustacheValue {
        ["page": chrome.mustacheValue, "testerName": .string(testerName), "testerPageURL": .string(testerPageURL),
         "release": release.mustacheValue, "qrSVG": .string(qrSVG), "enrollURL": enrollURL.map(MustacheValue.string) ?? .null]
    }
}

/// A page that only says something: not found, gone, an error.
struct MessagePage: Sendable, MustacheRepresentable {
    var chrome: PageChrome
    var heading: String
    var message: String
    var link: (url: String, label: String)?

    var mustacheValue: MustacheValue {
        ["page": chrome.mustacheValue, "heading": .string(heading), "message": .string(message),
         "link": link.map { ["url": .string($0.url), "label": .string($0.label)] } ?? .null]
    }
}
