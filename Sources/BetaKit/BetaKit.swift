// BetaKit: betactl's domain: the home and its SQLite store (Store/, schema migrations), API tokens
// and dashboard sessions, the roster and slot ledger, device enrolment, ingest and release checks,
// the content-addressed archive, symbol indexes and symbolication, crash storage, the webhook outbox
// and sender, backup, verify and restore.
//
// It may import AppleFormats, CryptoCMS, HTTPClient, PosixIO and CSQLite (loaded on first use);
// never the HTTP engine (BetaServer), the web app (BetaWeb) or the CLI.
