import CCurl

/// The system's libcurl, as this process uses it: loaded on first use, never linked, so a program
/// that makes no outbound request starts and runs on machines without it.
public enum CurlLibrary {
    /// Loads the libcurl at `path` instead of the system's. Only effective before anything else in
    /// this module is used (tests point it at a missing file to act out a machine without libcurl).
    public static func use(path: String) {
        bk_curl_use_library(path)
    }

    /// Why libcurl cannot be used, or nil when it loaded. Loads it on the first call.
    public static var loadError: String? {
        bk_curl_load_error().map { String(cString: $0) }
    }

    /// Whether libcurl loaded.
    public static var isAvailable: Bool { loadError == nil }
}
