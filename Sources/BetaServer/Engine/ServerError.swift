/// Why the server could not start.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The listen address did not parse.
    case invalidListenAddress(String)
    /// Another process already uses the port.
    case addressInUse(ListenAddress)
    /// Binding needs privileges (ports below 1024).
    case permissionDenied(ListenAddress)
    /// The address is not assigned to this machine.
    case addressNotAvailable(ListenAddress)
    /// Any other socket or poller failure.
    case system(operation: String, errno: Int32)
    /// A trusted proxy entry did not parse.
    case invalidTrustedProxy(String)

    /// What failed and how to fix it.
    public var description: String {
        switch self {
        case .invalidListenAddress(let text):
            "invalid listen address '\(text)': use HOST:PORT with a numeric host, e.g. 127.0.0.1:8080 or [::1]:8080"
        case .addressInUse(let address):
            "cannot listen on \(address): port \(address.port) is already in use; stop the other server "
                + "or choose another port with --listen \(address.host.contains(":") ? "[\(address.host)]" : address.host):PORT"
        case .permissionDenied(let address):
            "cannot listen on \(address): permission denied; ports below 1024 need privileges, use a port above 1024 behind a proxy"
        case .addressNotAvailable(let address):
            "cannot listen on \(address): the address is not assigned to this machine; use 127.0.0.1, ::1 or a local interface address"
        case .system(let operation, let code):
            "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .invalidTrustedProxy(let text):
            "invalid trusted proxy '\(text)': use an IP address or CIDR block such as 10.0.0.0/8 or ::1"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
