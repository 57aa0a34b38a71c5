/// Rules for entry names that are safe to extract under a directory.
public enum ZipEntryName {
    /// Throws unless `name` is relative and free of `..` components.
    public static func validate(_ name: String) throws(ZipError) {
        guard !name.isEmpty else { throw ZipError.unsafeName(name, reason: "has an empty name") }
        if name.hasPrefix("/") || name.hasPrefix("\\") {
            throw ZipError.unsafeName(name, reason: "is an absolute path")
        }
        let scalars = Array(name.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].properties.isAlphabetic {
            throw ZipError.unsafeName(name, reason: "is an absolute Windows path")
        }
        let components = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        if components.contains("..") {
            throw ZipError.unsafeName(name, reason: "contains a \"..\" component")
        }
    }
}
