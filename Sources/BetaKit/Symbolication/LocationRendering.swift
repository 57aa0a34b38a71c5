import Synchronization

/// The location lines of one looked-up address ("function (in Image) (File.swift:12)\n", one per
/// location), rendered by the first frame that prints them and reused by every later frame with
/// the same address and image name: in a batch, most frames repeat.
final class LocationRendering: Sendable {
    typealias Lines = (bytes: [UInt8], ends: [Int])

    private final class Rendered: Sendable {
        let imageName: String
        let lines: Lines
        init(imageName: String, lines: Lines) {
            self.imageName = imageName
            self.lines = lines
        }
    }

    private let cached = Mutex<Rendered?>(nil)

    /// The lines of `locations` in image `imageName`, from the cache when it holds them.
    func lines(_ locations: [SymbolicatedReport.Location], imageName: String) -> Lines {
        if let known = cached.withLock({ $0 }), known.imageName == imageName { return known.lines }
        let lines = Self.render(locations, imageName: imageName)
        cached.withLock { $0 = Rendered(imageName: imageName, lines: lines) }
        return lines
    }

    /// Each location's text after the frame's number, image and address, with where each line ends.
    static func render(_ locations: [SymbolicatedReport.Location], imageName: String) -> Lines {
        var out = TextOutput()
        var ends: [Int] = []
        ends.reserveCapacity(locations.count)
        for location in locations {
            out.append(location.function ?? "???")
            out.append(" (in ")
            out.append(imageName)
            out.append(")")
            if let file = location.file, location.line > 0 {
                out.append(" (")
                out.appendLastPathComponent(file)
                out.append(":")
                out.append(location.line)
                out.append(")")
            } else if let offset = location.symbolOffset {
                out.append(" + ")
                out.append(offset)
            }
            if location.inlined { out.append(" [inlined]") }
            out.append("\n")
            ends.append(out.bytes.count)
        }
        return (out.bytes, ends)
    }
}
