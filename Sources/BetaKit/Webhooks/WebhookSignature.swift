import AppleFormats

/// Standard Webhooks signing: `webhook-signature` is `v1,` and the base64 HMAC-SHA256, under the
/// endpoint's secret key, of `webhook-id.webhook-timestamp.body`.
public enum WebhookSignature {
    /// The secret's prefix, as Standard Webhooks libraries expect it.
    public static let secretPrefix = "whsec_"

    /// The `whsec_…` form of a key.
    public static func secret(key: [UInt8]) -> String {
        secretPrefix + String(decoding: Base64.encode(key), as: UTF8.self)
    }

    /// A new random 32-byte key.
    public static func newKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
    }

    /// The `webhook-signature` value for a message.
    public static func signature(key: [UInt8], messageID: String, timestamp: Int64, body: [UInt8]) -> String {
        let signed = Array("\(messageID).\(timestamp).".utf8) + body
        return "v1," + String(decoding: Base64.encode(HMACSHA256.code(key: key, message: signed)), as: UTF8.self)
    }
}
