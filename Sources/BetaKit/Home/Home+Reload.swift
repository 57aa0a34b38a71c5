#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Home {
    /// The same home with its settings read again. A long-running server opens its home once; the
    /// settings can change under it (`betactl init`, the settings API), and roster rules such as the
    /// membership year must use the current ones.
    public func reloaded() throws -> Home {
        guard let current = try store.loadSettings() else { throw HomeError.notInitialised(path: path) }
        return Home(path: path, store: store, settings: current, permissionNotice: nil)
    }

    /// Changes the settings `change` gives (validated as `init` validates them) and returns them
    /// all as they are now.
    public func applySettings(_ change: HomeSettingsChange, now: Date) throws -> HomeSettings {
        try store.applySettings(try change.validated(), now: now).after
    }
}
