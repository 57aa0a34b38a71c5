/// A CPU type and subtype pair, as found in Mach-O and fat headers.
public struct MachOArchitecture: Hashable, Sendable, CustomStringConvertible {
    /// The raw `cputype` field.
    public var cpuType: Int32
    /// The raw `cpusubtype` field, without the capability bits in the top byte.
    public var cpuSubtype: Int32

    /// Creates an architecture from raw header fields; capability bits are dropped.
    public init(cpuType: Int32, cpuSubtype: Int32) {
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype & 0x00ff_ffff
    }

    static let abi64: Int32 = 0x0100_0000
    static let abi64_32: Int32 = 0x0200_0000
    static let cpuX86: Int32 = 7
    static let cpuARM: Int32 = 12

    /// arm64 (subtype all).
    public static let arm64 = MachOArchitecture(cpuType: cpuARM | abi64, cpuSubtype: 0)
    /// arm64e, the pointer-authentication ABI.
    public static let arm64e = MachOArchitecture(cpuType: cpuARM | abi64, cpuSubtype: 2)
    /// 32-bit ARMv7.
    public static let armv7 = MachOArchitecture(cpuType: cpuARM, cpuSubtype: 9)
    /// 32-bit ARMv7s.
    public static let armv7s = MachOArchitecture(cpuType: cpuARM, cpuSubtype: 11)
    /// 32-bit ARMv7k (Apple Watch).
    public static let armv7k = MachOArchitecture(cpuType: cpuARM, cpuSubtype: 12)
    /// arm64_32 (Apple Watch with 32-bit pointers).
    public static let arm64_32 = MachOArchitecture(cpuType: cpuARM | abi64_32, cpuSubtype: 1)
    /// x86_64.
    public static let x86_64 = MachOArchitecture(cpuType: cpuX86 | abi64, cpuSubtype: 3)
    /// 32-bit Intel.
    public static let i386 = MachOArchitecture(cpuType: cpuX86, cpuSubtype: 3)

    static let named: [(String, MachOArchitecture)] = [
        ("arm64", .arm64), ("arm64e", .arm64e), ("armv7", .armv7), ("armv7s", .armv7s),
        ("armv7k", .armv7k), ("arm64_32", .arm64_32), ("x86_64", .x86_64), ("i386", .i386),
    ]

    /// Looks up an architecture by the name Apple's tools use (`arm64`, `armv7s`, …).
    public init?(name: String) {
        guard let match = Self.named.first(where: { $0.0 == name.lowercased() }) else { return nil }
        self = match.1
    }

    /// Whether pointers and `nlist` entries are 64-bit.
    public var is64Bit: Bool { cpuType & Self.abi64 != 0 }

    /// The name Apple's tools print, or `cpu<type>/<subtype>` when unknown.
    public var name: String {
        if let match = Self.named.first(where: { $0.1 == self }) { return match.0 }
        switch cpuType {
        case Self.cpuARM | Self.abi64: return "arm64"  // other arm64 subtypes (e.g. v8) read as arm64
        case Self.cpuARM: return "arm"
        case Self.cpuX86 | Self.abi64: return "x86_64"
        default: return "cpu\(cpuType)/\(cpuSubtype)"
        }
    }

    /// Same as `name`.
    public var description: String { name }
}
