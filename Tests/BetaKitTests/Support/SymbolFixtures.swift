import Foundation
import AppleFormats
@testable import BetaKit
import TestSupport

/// The generated symbolication fixtures (Tests/Fixtures/symbols) and llvm-symbolizer's answers for them.
enum SymbolFixtures {
    struct Frame: Equatable, CustomStringConvertible {
        var function: String
        var file: String
        var line: Int
        var column: Int
        var description: String { "\(function) \(file):\(line):\(column)" }
    }

    struct Variant: CustomStringConvertible {
        var name: String
        var dwarf: String
        var architecture: MachOArchitecture
        var description: String { name }
    }

    static let variants: [Variant] = [
        Variant(name: "arm64-dwarf4", dwarf: "arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App", architecture: .arm64),
        Variant(name: "arm64-dwarf5", dwarf: "arm64-dwarf5/App.dSYM/Contents/Resources/DWARF/App", architecture: .arm64),
        Variant(name: "fat-arm64", dwarf: "fat/Fat.dSYM/Contents/Resources/DWARF/Fat", architecture: .arm64),
        Variant(name: "fat-armv7", dwarf: "fat/Fat.dSYM/Contents/Resources/DWARF/Fat", architecture: .armv7),
    ]

    static func path(_ relative: String) -> String { LocalFixtures.url("symbols/" + relative).path }

    /// llvm-symbolizer's frames for every address of a variant, in file order.
    static func expected(_ variant: Variant) throws -> [(address: UInt64, frames: [Frame])] {
        let text = try String(contentsOfFile: path("expected/\(variant.name).tsv"), encoding: .utf8)
        var result: [(address: UInt64, frames: [Frame])] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6, let address = UInt64(fields[0].dropFirst(2), radix: 16),
                  let lineNumber = Int(fields[4]), let column = Int(fields[5]) else { continue }
            let frame = Frame(function: fields[2], file: fields[3], line: lineNumber, column: column)
            if fields[1] == "0" { result.append((address, [frame])) } else { result[result.count - 1].frames.append(frame) }
        }
        return result
    }

    /// Raw name -> the display name the oracle tools give.
    static func displayNames() throws -> [String: String] {
        let text = try String(contentsOfFile: path("expected/names.tsv"), encoding: .utf8)
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if fields.count == 2 { result[fields[0]] = fields[1] }
        }
        return result
    }

    /// The UUID of a variant's slice.
    static func symbolFile(_ variant: Variant) throws -> SymbolFile {
        let images = try DSYMPathLocator.images(inFile: path(variant.dwarf))
        guard let match = images.first(where: { $0.architecture == variant.architecture }) else {
            throw SymbolicationError.notASymbolFile(path: variant.dwarf, reason: "no \(variant.architecture) slice")
        }
        return match
    }

    /// A fresh, empty cache folder.
    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("betactl-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Our frames in the oracle's shape ("??" for unknown).
    static func frames(_ locations: [SymbolicatedLocation]) -> [Frame] {
        if locations.isEmpty { return [Frame(function: "??", file: "??", line: 0, column: 0)] }
        return locations.map { Frame(function: $0.function ?? "??", file: $0.file ?? "??", line: $0.line, column: $0.column) }
    }
}
