import Foundation

/// The Python virtual environment `.ci/install-deps --test` creates for tools from PyPI (segno,
/// selenium): `$BETACTL_ORACLE_VENV`, else `${XDG_CACHE_HOME:-$HOME/.cache}/betactl/python-oracles`.
public enum PythonOracles {
    /// The environment's interpreter.
    public static var python: String {
        let environment = ProcessInfo.processInfo.environment
        if let venv = environment["BETACTL_ORACLE_VENV"], !venv.isEmpty { return venv + "/bin/python" }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.cache")
        return cache + "/betactl/python-oracles/bin/python"
    }

    /// Whether the environment exists.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python) }
}
