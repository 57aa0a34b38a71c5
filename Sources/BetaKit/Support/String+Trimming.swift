extension StringProtocol {
    /// The string without leading and trailing whitespace (including newlines).
    var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first ... last])
    }
}

extension String {
    /// The path without trailing slashes; "/" itself stays.
    var withoutTrailingSlashes: String {
        var result = self
        while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
