// BetaJSON: the JSON shapes betactl prints with `--json` and the API (`/api/v1`) answers, one
// definition for both, so a field means the same thing everywhere. Each shape is built from a
// BetaKit model and encodes it; field names are part of betactl's interface (add, never rename).
//
// It may import BetaKit, AppleFormats and the Foundation essentials, and nothing else: no web
// application (BetaWeb), no HTTP engine (BetaServer), no CLI. The CLI's commands import it instead
// of the web app; only the commands that serve (`serve`, `demo`) import BetaWeb.
