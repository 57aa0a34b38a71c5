extension StringProtocol {
    /// The string without leading and trailing whitespace (including newlines).
    var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first ... last])
    }
}
