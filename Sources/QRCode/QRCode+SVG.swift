extension QRCode {
    /// The symbol as a standalone SVG document: a white background and one `<path>` holding every
    /// dark module, one rectangle per horizontal run, drawn in module units inside a viewBox that
    /// includes the quiet zone. `width` and `height` are the viewBox times `moduleSize`, and
    /// `shape-rendering="crispEdges"` keeps browsers from blurring module edges into grey.
    /// Throws `QRCodeError.invalidScale` when `moduleSize` is outside `QRCode.scales`.
    public func svg(moduleSize: Int = 4) throws(QRCodeError) -> String {
        guard Self.scales.contains(moduleSize) else { throw .invalidScale(moduleSize, allowed: Self.scales) }
        let side = size + 2 * Self.quietZone
        let pixels = side * moduleSize
        var path = ""
        path.reserveCapacity(size * size * 2)
        for y in 0 ..< size {
            var x = 0
            while x < size {
                guard modules[y * size + x] != 0 else {
                    x += 1
                    continue
                }
                var end = x + 1
                while end < size && modules[y * size + end] != 0 { end += 1 }
                path += "M\(x + Self.quietZone) \(y + Self.quietZone)h\(end - x)v1h-\(end - x)z"
                x = end
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(pixels)\" height=\"\(pixels)\" "
            + "viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>\n"
    }
}
