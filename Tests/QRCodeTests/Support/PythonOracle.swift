import Foundation
import TestSupport

/// Python's segno, an independent QR code encoder from PyPI, in the virtual environment that
/// `.ci/install-deps` creates. Cases go to one Python process as JSON, so hundreds of symbols cost
/// one interpreter start.
enum Segno {
    static var python: String { PythonOracles.python }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// One symbol to make: bytes, and optionally the version and mask to force.
    struct Case: Encodable {
        var hex: String
        var version: Int?
        var mask: Int?

        init(_ bytes: [UInt8], version: Int? = nil, mask: Int? = nil) {
            let digits = Array("0123456789abcdef".utf8)
            hex = String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
            self.version = version
            self.mask = mask
        }
    }

    /// What segno made: its version, mask, error level and rows of "0"/"1" (no quiet zone).
    struct Symbol: Decodable {
        var version: Int
        var mask: Int
        var error: String
        var rows: [String]
    }

    /// segno 1.6.6 adds a whole zero codeword when the data and terminator already end on a byte
    /// boundary, where ISO/IEC 18004 7.4.10 adds nothing before the pad codewords (segno issue #148,
    /// open): readers ignore it, but the matrix differs. The script replaces that one step with the
    /// standard's rule, so only symbols filled to capacity would pass without the patch.
    static let script = """
        import json, sys, segno
        from segno import encoder
        encoder.write_padding_bits = lambda buff, version, length: buff.extend([0] * (-length % 8))
        out = []
        for case in json.load(sys.stdin):
            code = segno.make(bytes.fromhex(case["hex"]), error="m", mode="byte", micro=False,
                              boost_error=False, version=case.get("version"), mask=case.get("mask"))
            out.append({"version": code.version, "mask": code.mask, "error": code.error,
                        "rows": ["".join(str(m) for m in row) for row in code.matrix]})
        json.dump(out, sys.stdout)
        """

    static func make(_ cases: [Case]) async throws -> [Symbol] {
        let input = try JSONEncoder().encode(cases)
        let result = try await runTool(python, ["-c", script], input: input, timeout: 300)
        guard result.status == 0 else { throw ReferenceDecoder.Failure("segno failed: \(result.error)") }
        return try JSONDecoder().decode([Symbol].self, from: result.output)
    }
}
