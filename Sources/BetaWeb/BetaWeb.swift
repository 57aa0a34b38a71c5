// BetaWeb: the web application `betactl serve` runs, folder by feature: Tester/ (a tester's
// pages, files, manifest, QR codes, enrolment, the crash form, and the TesterAuth middleware),
// Intake/ (the SDKs' crash endpoints), Admin/ (the dashboard), API/ (the JSON API under /api/v1),
// Provisioning/ and Webhooks/ (the background workers), Shared/ (WebActions, what the dashboard and
// the API both do; URL scheme, rendering, assets, snapshots, errors, rate limits) and App/
// (BetaWebApplication, which creates the parts and wires the routes). Each feature is a controller
// (TesterController, IntakeController, APIController, AdminController, SitePages) holding only the
// dependencies it needs; the API and the dashboard share only WebActions. Route groups carry
// their auth as middleware that stores a typed principal in the context: TesterAuth (the tester),
// APITokenAuth (the token and its scope), IngestKeyAuth (the app's ingest key).
//
// It may import BetaKit, BetaJSON, BetaServer, AppleFormats, Mustache, QRCode, Multipart,
// CryptoCMS and PosixIO. Of the CLI, only `serve` and `demo` import it.
