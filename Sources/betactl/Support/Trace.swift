#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
let traceOn = getenv("BETACTL_TRACE") != nil
func trace(_ label: StaticString) {
    guard traceOn else { return }
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    var wall = timespec()
    clock_gettime(CLOCK_MONOTONIC, &wall)
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let line = "\(ts.tv_sec * 1_000_000 + ts.tv_nsec / 1000) us cpu  \(label) \(usage.ru_minflt)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
