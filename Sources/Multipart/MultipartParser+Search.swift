// memchr and memcmp: the C library's vectorised byte search and comparison (no system call).
#if canImport(Glibc)
import func Glibc.memchr
import func Glibc.memcmp
#elseif canImport(Darwin)
import func Darwin.memchr
import func Darwin.memcmp
#endif

extension MultipartParser {
    /// Finds the first `CRLF--boundary` in `buffer` from `start`. Returns its offset, or nil and
    /// where a possible delimiter start begins at the end of the buffer (the count when none).
    ///
    /// memchr jumps to each CR (vectorised in the C library, so binary data, with a CR every
    /// 256 bytes on average, scans at memory speed) and memcmp checks the rest of the delimiter.
    /// Each CR is compared against at most the delimiter's 74 bytes, so no input is quadratic.
    func findDelimiter(_ buffer: UnsafeRawBufferPointer, from start: Int) -> (found: Int?, keep: Int) {
        let count = buffer.count
        guard start < count, let base = buffer.baseAddress else { return (nil, count) }
        return boundary.delimiter.withUnsafeBytes { delimiter -> (Int?, Int) in
            guard let pattern = delimiter.baseAddress else { return (nil, count) }
            let length = delimiter.count
            var position = start
            while position < count {
                guard let hit = memchr(base + position, Int32(Self.cr), count - position) else { return (nil, count) }
                let at = base.distance(to: UnsafeRawPointer(hit))
                let available = count - at
                if available >= length {
                    if memcmp(hit, pattern, length) == 0 { return (at, at) }
                } else if memcmp(hit, pattern, available) == 0 {
                    return (nil, at)
                }
                position = at + 1
            }
            return (nil, count)
        }
    }
}
