/// The locations one address resolved to, with their text as frame lines print it, shared by
/// every frame (of every report a symbolicator handles) at that address.
///
/// The text is everything after a frame line's number, image and address:
/// `function (in Image) (File.swift:12)` and a line break, one line per location. It depends on
/// the image's name, which is fixed when the address is resolved; a frame printed under another
/// name renders its lines afresh.
final class ResolvedAddress: Sendable {
    typealias Location = SymbolicatedReport.Location

    /// Innermost first; never empty.
    let locations: [Location]
    /// The image name `lines` were rendered with, nil when they were not rendered.
    let imageName: String?
    /// The rendered lines, one after another.
    let lines: [UInt8]
    /// Where each line but the last ends in `lines` (the last ends at its end).
    let ends: [Int]

    /// Locations that are rendered when printed (names a report carried itself, locations a
    /// caller set).
    init(locations: [Location]) {
        self.locations = locations
        imageName = nil
        lines = []
        ends = []
    }

    /// Locations with their lines for image `imageName`.
    init(locations: [Location], imageName: String) {
        self.locations = locations
        self.imageName = imageName
        var out = TextOutput(capacity: 160 * locations.count)
        var ends: [Int] = []
        for (position, location) in locations.enumerated() {
            if position > 0 { ends.append(out.count) }
            Self.appendLine(location, imageName: imageName, to: &out)
        }
        lines = out.withBytes { Array($0) }
        self.ends = ends
    }

    /// Appends the frame lines of these locations: the first after the frame's head already in
    /// `out` (bytes `head`), each later one after a copy of that head.
    func appendLines(imageName: String, head: Range<Int>, to out: inout TextOutput) {
        if self.imageName == imageName, !lines.isEmpty {
            lines.withUnsafeBufferPointer { bytes in
                var start = 0
                for end in ends {
                    out.append(UnsafeBufferPointer(rebasing: bytes[start ..< end]))
                    out.appendCopy(of: head)
                    start = end
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[start...]))
            }
            return
        }
        for (position, location) in locations.enumerated() {
            if position > 0 { out.appendCopy(of: head) }
            Self.appendLine(location, imageName: imageName, to: &out)
        }
    }

    /// "function (in Image) (File.swift:12)\n", or "+ offset" instead of the file when only the
    /// symbol table knew the function.
    static func appendLine(_ location: Location, imageName: String, to out: inout TextOutput) {
        out.append(string: location.function ?? "???")
        out.append(" (in ")
        out.append(string: imageName)
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
    }
}
