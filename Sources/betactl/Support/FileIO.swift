import BetaKit
import PosixIO

/// Small file helpers for commands that read inputs and write outputs.
enum FileIO {
    /// Reads a whole input file of at most `limit` bytes. A path that names no file is bad input
    /// (exit 65), as it is for the commands that ingest bundles.
    static func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            guard error.isNotFound else { throw FileSystemError(error) }
            throw CommandFailure(description: FileSystemError(error).description, category: .invalidInput)
        }
        defer { try? file.close() }
        let status: FileMetadata
        do { status = try file.status() } catch { throw FileSystemError(error) }
        guard status.kind == .regularFile else { throw FileSystemError.notARegularFile(operation: "read", path: path, kind: status.kind) }
        guard status.size <= Int64(limit) else {
            throw CommandFailure(description: "\(path) is \(status.size) bytes, larger than the \(limit)-byte limit for this kind of file; check that it is the right file", category: .invalidInput)
        }
        // Read straight into the array's storage: no zero-filling and no second copy.
        var failure: SystemCallError?
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(status.size)) { buffer, initialized in
            initialized = 0
            while initialized < buffer.count {
                do throws(SystemCallError) {
                    let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized...]))
                    guard n > 0 else { break }
                    initialized += n
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw FileSystemError(failure) }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: a reader sees the old file or the whole new one, never half.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try AtomicFile.write(bytes, to: path)
    }
}
