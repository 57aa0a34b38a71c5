import Foundation
import Testing
import TestSupport
@testable import QRCode

@Suite struct SVGRenderingTests {
    /// The cells the `d` attribute covers, interpreting its absolute and relative M/m, h/H, v/V, z
    /// commands and requiring every subpath to be a closed axis-aligned rectangle; overlaps are counted.
    static func rasterize(path d: String, side: Int) throws -> (cells: [[Bool]], overlaps: Int) {
        var cells = [[Bool]](repeating: [Bool](repeating: false, count: side), count: side)
        var overlaps = 0
        let token = #/([MmHhVvZz])|(-?[0-9]+)/#
        let tokens = d.matches(of: token).map { $0.0 }
        var next = 0  // an index rather than removeFirst(), which made reading a path quadratic
        #expect(tokens.map(\.count).reduce(0, +) == d.filter { !$0.isWhitespace }.count, "unexpected characters in the path")
        var x = 0, y = 0
        var polygon: [(Int, Int)] = []
        func number() throws -> Int {
            guard next < tokens.count, let value = Int(tokens[next]) else { throw ReferenceDecoder.Failure("a number was expected") }
            next += 1
            return value
        }
        func close() throws {
            let xs = Set(polygon.map(\.0)), ys = Set(polygon.map(\.1))
            guard polygon.count == 4, xs.count == 2, ys.count == 2, let left = xs.min(), let right = xs.max(),
                  let top = ys.min(), let bottom = ys.max() else {
                throw ReferenceDecoder.Failure("a subpath is not a rectangle: \(polygon)")
            }
            for row in top ..< bottom {
                for column in left ..< right {
                    if cells[row][column] { overlaps += 1 }
                    cells[row][column] = true
                }
            }
            polygon = []
        }
        while next < tokens.count {
            next += 1
            switch tokens[next - 1] {
            case "M": x = try number(); y = try number(); polygon = [(x, y)]
            case "m": x += try number(); y += try number(); polygon = [(x, y)]
            case "h": x += try number(); polygon.append((x, y))
            case "H": x = try number(); polygon.append((x, y))
            case "v": y += try number(); polygon.append((x, y))
            case "V": y = try number(); polygon.append((x, y))
            case "z", "Z": try close()
            case let other: throw ReferenceDecoder.Failure("unexpected path token \(other)")
            }
        }
        #expect(polygon.isEmpty, "the last subpath is not closed")
        return (cells, overlaps)
    }

    @Test(arguments: [0, 1, 26, 100, 513, 2331])
    func pathCoversExactlyTheDarkModulesInsideTheQuietZone(length: Int) throws {
        let code = try QRCode.encode(Samples.url(length: length))
        let svg = try code.svg(moduleSize: 3)
        let side = code.size + 8
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" "))
        #expect(svg.contains(" width=\"\(side * 3)\" height=\"\(side * 3)\" viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\""))
        #expect(svg.contains("<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"))
        #expect(svg.components(separatedBy: "<path").count == 2, "exactly one path")
        let d = try #require(svg.firstMatch(of: #/<path fill="#000" d="([^"]*)"/>/#)?.1)
        let (cells, overlaps) = try Self.rasterize(path: String(d), side: side)
        #expect(overlaps == 0)
        for y in 0 ..< side {
            for x in 0 ..< side where cells[y][x] != code.isDark(x: x - 4, y: y - 4) {
                Issue.record("module (\(x - 4),\(y - 4)) of version \(code.version) differs in the SVG")
            }
        }
    }

    @Test func rasterizerRefusesWhatIsNotARectangle() {
        #expect(throws: ReferenceDecoder.Failure.self) { try Self.rasterize(path: "M0 0h2v1z", side: 4) }
        #expect(throws: ReferenceDecoder.Failure.self) { try Self.rasterize(path: "M0 0h2v1h-2v1z", side: 4) }
        #expect((try? Self.rasterize(path: "M1 1h2v1h-2z", side: 4))?.cells[1] == [false, true, true, false])
    }
}
