import PosixIO

extension FileDescriptor {
    /// Creates the new file `path` (it must not exist), mode 0600, open for writing; a failure is
    /// reported as `operation` on the path.
    static func createNew(_ path: String, operation: String = "create", options: Options = []) throws(FileSystemError) -> FileDescriptor {
        try withFileSystemError(operation) { () throws(SystemCallError) in
            try FileDescriptor.open(path, .writeOnly, options: options.union([.create, .exclusiveCreate]), permissions: 0o600)
        }
    }
}
