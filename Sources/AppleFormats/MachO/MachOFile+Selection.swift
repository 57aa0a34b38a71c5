extension MachOFile {
    // When the caller does not say, the slice a modern device would run.
    static let preferenceOrder: [MachOArchitecture] = [.arm64e, .arm64, .x86_64, .armv7s, .armv7, .armv7k, .arm64_32, .i386]

    /// Chooses the slice to read for `architecture`.
    ///
    /// An exact match wins. A generic `arm64` request also accepts an arm64e-only file and vice
    /// versa (crash reports on arm64e devices often say `arm64`), and a generic 32-bit `arm`
    /// request takes the first ARMv7 variant. With no architecture, a thin file's only slice is
    /// used and a fat file gives its most modern slice.
    public func slice(choosing architecture: MachOArchitecture?) throws(MachOError) -> Slice {
        guard let architecture else {
            if slices.count == 1 { return slices[0] }
            for wanted in Self.preferenceOrder {
                if let found = slice(for: wanted) { return found }
            }
            guard let first = slices.first else { throw MachOError.malformed("the file has no architectures") }
            return first
        }
        if let exact = slice(for: architecture) { return exact }
        if architecture.cpuType == MachOArchitecture.arm64.cpuType,
           let sibling = slices.first(where: { $0.architecture.cpuType == architecture.cpuType }) {
            return sibling
        }
        if architecture.cpuType == MachOArchitecture.armv7.cpuType, architecture.cpuSubtype == 0,
           let variant = slices.first(where: { $0.architecture.cpuType == architecture.cpuType }) {
            return variant
        }
        throw MachOError.missingArchitecture(architecture.name, available: slices.map(\.architecture.name))
    }
}
