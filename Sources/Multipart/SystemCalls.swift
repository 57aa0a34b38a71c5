#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `close` and `write` under names that a type's own `close()` and `write(_:)` methods do not
// shadow: the spool writers here and in the web app (UploadFileWriter) call them from such types.

/// The system's `close(2)`.
@inline(__always) package func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}

/// The system's `write(2)`.
@inline(__always) package func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, pointer, count)
    #else
    Darwin.write(fd, pointer, count)
    #endif
}
