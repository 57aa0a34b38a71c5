/// Comparing build numbers (CFBundleVersion) as Apple does: dot-separated integers.
public enum BuildNumbers {
    /// Whether build `a` is newer than `b`, comparing dot-separated numbers (missing parts are 0,
    /// and parts that are not numbers compare as text).
    public static func isNewer(_ a: String, than b: String) -> Bool {
        let left = a.split(separator: "."), right = b.split(separator: ".")
        for index in 0 ..< max(left.count, right.count) {
            let l = index < left.count ? left[index] : "0", r = index < right.count ? right[index] : "0"
            if let x = Int(l), let y = Int(r) {
                if x != y { return x > y }
            } else if l != r {
                return l > r
            }
        }
        return false
    }
}
