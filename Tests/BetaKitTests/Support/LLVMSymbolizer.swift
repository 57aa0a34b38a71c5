import Foundation
import TestSupport

/// Runs llvm-symbolizer (the oracle) when it is installed; tests that need it skip otherwise.
enum LLVMSymbolizer {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["llvm-symbolizer-19", "llvm-symbolizer"] {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    static var available: Bool { executable != nil }

    /// `llvm-symbolizer --inlines --no-demangle` for each address of `object` (slice `architecture`).
    static func symbolize(object: String, architecture: String, addresses: [UInt64]) throws -> [[SymbolFixtures.Frame]] {
        guard let executable else { return [] }
        let text = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        let data = try runToolNow(executable, ["--inlines", "--no-demangle", "--output-style=JSON", "--default-arch=\(architecture)", "--obj=\(object)"],
                                  input: Data(text.utf8)).output
        struct Entry: Decodable {
            struct Symbol: Decodable {
                var FunctionName: String
                var FileName: String
                var Line: Int
                var Column: Int
            }
            var Symbol: [Symbol]
        }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            try JSONDecoder().decode(Entry.self, from: Data(line.utf8)).Symbol.map {
                SymbolFixtures.Frame(function: $0.FunctionName.isEmpty ? "??" : $0.FunctionName,
                                     file: $0.FileName.isEmpty ? "??" : $0.FileName, line: $0.Line, column: $0.Column)
            }
        }
    }
}
