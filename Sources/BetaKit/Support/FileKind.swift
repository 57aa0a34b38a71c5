#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, from `stat(2)`.
enum FileKind: Equatable {
    case missing
    case directory
    case regularFile
    case other

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { self = .missing; return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: self = .directory
        case S_IFREG: self = .regularFile
        default: self = .other
        }
    }
}
