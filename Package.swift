// swift-tools-version: 6.0
import PackageDescription

// betactl has no package dependencies by design: everything beyond the Swift
// toolchain comes from OS C libraries exposed through system-library targets.
let package = Package(
    name: "betactl",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "betactl", targets: ["betactl"]),
        .library(name: "BetaKit", targets: ["BetaKit"]),
        .library(name: "BetaJSON", targets: ["BetaJSON"]),
        .library(name: "AppleFormats", targets: ["AppleFormats"]),
        .library(name: "BetaServer", targets: ["BetaServer"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "QRCode", targets: ["QRCode"]),
        .library(name: "Multipart", targets: ["Multipart"]),
        .library(name: "CryptoCMS", targets: ["CryptoCMS"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "PosixIO", targets: ["PosixIO"]),
    ],
    targets: [
        // SQLite's header only: the library is loaded with dlopen when a database is first opened
        // (see Sources/CSQLite/shim.h), so commands that never open one do not pay for it.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Exposes epoll/eventfd/sendfile on Linux; empty elsewhere (kqueue is in Darwin).
        .systemLibrary(name: "CSystemShim"),
        // The few libcrypto (OpenSSL) entry points CMS signing and verification need, loaded with dlopen
        // on first use (see Sources/CCrypto/shim.h): no header or library is needed to build, and
        // nothing that does not sign or verify ever loads it.
        .systemLibrary(name: "CCrypto"),
        // The few libcurl entry points an HTTPS client needs, loaded with dlopen on first use (see
        // Sources/CCurl/shim.h): nothing is needed to build, and a program that never calls out runs without it.
        .systemLibrary(name: "CCurl"),
        // Opening an optional system library on first use (dlopen, candidates, why it failed): shared by CCrypto and CCurl.
        .systemLibrary(name: "CLibraryLoader"),

        // System calls wrapped once: EINTR retried, short reads and writes continued, typed errors
        // naming the call and the file. Generic; the other modules use it instead of Glibc/Darwin.
        .target(name: "PosixIO"),
        .target(name: "AppleFormats", dependencies: ["CZlib"]),
        .target(name: "BetaKit", dependencies: ["AppleFormats", "CSQLite", "CryptoCMS", "HTTPClient", "PosixIO"]),
        // The HTTP/1.1 engine: generic, it knows nothing of betactl.
        .target(name: "BetaServer", dependencies: ["CSystemShim", "CZlib", "PosixIO"]),
        // The template engine (a Mustache subset): generic, no betactl knowledge, no dependencies.
        .target(name: "Mustache"),
        // A generic QR code encoder with SVG and PNG output; knows nothing of betactl.
        .target(name: "QRCode", dependencies: ["CZlib"]),
        // Streaming multipart/form-data (RFC 7578) with pluggable part consumers; generic, no betactl knowledge.
        .target(name: "Multipart", dependencies: ["PosixIO"]),
        // CMS SignedData signing and verification through the system's libcrypto; generic, no betactl knowledge.
        .target(name: "CryptoCMS", dependencies: ["CCrypto", "CLibraryLoader"]),
        // A blocking HTTPS client over the system's libcurl, with retries; generic, no betactl knowledge.
        .target(name: "HTTPClient", dependencies: ["CCurl", "CLibraryLoader", "PosixIO"]),
        // Build-time embedding of files (templates, web assets) into a target that applies the
        // plugin: the tool reads the target's EmbedAssets.txt and writes EmbeddedAssets.files.
        .executableTarget(name: "EmbedAssetsTool", dependencies: ["PosixIO"]),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["EmbedAssetsTool"]),
        // The JSON shapes the CLI's --json prints and the API answers (see Sources/BetaJSON/BetaJSON.swift):
        // the domain's models encoded, nothing of the web app, so the CLI's commands need not link it.
        .target(name: "BetaJSON", dependencies: ["BetaKit", "AppleFormats"]),
        // The web application: routes, page models, templates, the URL scheme.
        // Templates/ and web/ are embedded at build time (EmbedAssets.txt), so the binary needs no files.
        .target(name: "BetaWeb", dependencies: ["BetaKit", "BetaJSON", "BetaServer", "AppleFormats", "Mustache", "QRCode", "Multipart", "CryptoCMS", "PosixIO"],
                exclude: ["EmbedAssets.txt"], plugins: ["EmbedAssets"]),
        .executableTarget(
            name: "betactl",
            dependencies: ["BetaKit", "BetaJSON", "BetaServer", "BetaWeb", "AppleFormats", "CryptoCMS", "HTTPClient", "PosixIO"],
            // The demo's build (the project's generated fixture app and its dSYMs) is embedded too.
            exclude: ["EmbedAssets.txt"],
            // A release build on Linux carries the Swift runtime and FoundationEssentials inside the
            // binary: it runs on a machine without the toolchain, and it starts in about half the time
            // because the dynamic loader has no Swift libraries to find and bind (bench/symbolicate).
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims"], .when(platforms: [.linux], configuration: .release))],
            plugins: ["EmbedAssets"]
        ),
        // Minimal host for the HTTP engine, driven by BetaServerTests and bench/http.
        .executableTarget(name: "BetaServerHost", dependencies: ["BetaServer"]),

        // What every test target shares: fixture locations, temporary directories, running betactl
        // and other tools, raw sockets. One copy, not one per target.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "AppleFormatsTests", dependencies: ["AppleFormats", "TestSupport"]),
        .testTarget(name: "BetaKitTests", dependencies: ["BetaKit", "AppleFormats", "HTTPClient", "CryptoCMS", "TestSupport"]),
        .testTarget(name: "BetaServerTests", dependencies: ["BetaServer", "BetaKit", "BetaServerHost", "TestSupport"]),
        .testTarget(name: "BetactlTests", dependencies: ["betactl", "BetaKit", "AppleFormats", "CryptoCMS", "TestSupport"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "TestSupport"]),
        // Embeds its own Fixture/ folder with the plugin and checks the bytes against the disk.
        .testTarget(
            name: "EmbedAssetsTests",
            dependencies: ["TestSupport"],
            exclude: ["EmbedAssets.txt", "Fixture", "lone.txt", "make-fixture.sh"],
            plugins: ["EmbedAssets"]
        ),
        .testTarget(name: "MultipartTests", dependencies: ["Multipart", "AppleFormats", "TestSupport"]),
        .testTarget(name: "BetaWebTests", dependencies: ["BetaWeb", "BetaJSON", "BetaKit", "BetaServer", "AppleFormats", "CryptoCMS", "TestSupport"]),
        .testTarget(name: "PosixIOTests", dependencies: ["PosixIO", "TestSupport"]),
        .testTarget(name: "CryptoCMSTests", dependencies: ["CryptoCMS", "AppleFormats", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
