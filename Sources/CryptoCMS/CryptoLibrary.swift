import CCrypto

/// The system's libcrypto (OpenSSL), as this process uses it: loaded on first use, never linked,
/// so a program that does not sign runs on machines without it.
public enum CryptoLibrary {
    /// Loads the libcrypto at `path` instead of the system's. Only effective before anything else
    /// in this module is used (tests point it at a missing file to act out a machine without OpenSSL).
    public static func use(path: String) {
        bk_crypto_use_library(path)
    }

    /// Why libcrypto cannot be used, or nil when it loaded. Loads it on the first call.
    public static var loadError: String? {
        bk_crypto_load_error().map { String(cString: $0) }
    }

    /// Whether libcrypto loaded.
    public static var isAvailable: Bool { loadError == nil }

    /// Throws `libraryUnavailable` unless libcrypto loaded.
    static func require() throws(CMSSigningError) {
        if let reason = loadError { throw CMSSigningError.libraryUnavailable(reason) }
    }

    /// The oldest queued libcrypto error of this thread as text (the queue is emptied), or `fallback`.
    static func takeError(_ fallback: String) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let code = buffer.withUnsafeMutableBufferPointer { bk_crypto_take_error($0.baseAddress, $0.count) }
        guard code != 0 else { return fallback }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? fallback : text
    }
}
