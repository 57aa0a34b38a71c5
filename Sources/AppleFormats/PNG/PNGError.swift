/// Why an icon PNG could not be read or converted.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The PNG signature is missing.
    case notPNG
    /// A chunk or the image data is damaged.
    case corrupt(String)
    /// A valid PNG variant betactl does not convert.
    case unsupported(String)
    /// The image is larger than the converter accepts.
    case tooLarge(width: UInt32, height: UInt32)

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .notPNG:
            return "the app icon is not a PNG file (no PNG signature); check the icon file names in Info.plist"
        case let .corrupt(detail):
            return "the app icon PNG is corrupt: \(detail); rebuild the app so Xcode compiles the icon again"
        case let .unsupported(detail):
            return "the app icon PNG uses \(detail), which betactl cannot convert; the install page will show no icon"
        case let .tooLarge(width, height):
            return "the app icon is \(width)x\(height) pixels, larger than the 4096x4096 betactl converts"
        }
    }
}
