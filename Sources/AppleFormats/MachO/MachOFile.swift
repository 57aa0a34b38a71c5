/// A Mach-O file: either one thin image or a fat (universal) wrapper around several.
///
/// Offsets inside each slice's load commands are relative to the slice, so parse
/// a slice with `MachOImage(bytes:)` on exactly its byte range.
public struct MachOFile: Sendable {
    /// One architecture's image within the file.
    public struct Slice: Sendable, Equatable {
        /// The slice's architecture from the fat header (or the thin header).
        public var architecture: MachOArchitecture
        /// Where the slice starts in the file.
        public var offset: Int
        /// The slice's length in bytes.
        public var size: Int
    }

    /// Whether the file had a fat header.
    public var isFat: Bool
    /// The images in the file, in header order.
    public var slices: [Slice]

    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf
    // A fat header with more entries than this is almost surely a Java class file (also 0xcafebabe).
    static let maxFatArchitectures: UInt32 = 64

    /// Reads the header of a thin or fat Mach-O file without parsing the images.
    public init(bytes: UnsafeRawBufferPointer) throws(MachOError) {
        var reader = ByteReader(bytes)
        let magicBE: UInt32
        do { magicBE = try reader.u32be() } catch { throw MachOError.notMachO(reason: "file is only \(bytes.count) byte\(bytes.count == 1 ? "" : "s") long") }
        if magicBE == Self.fatMagic || magicBE == Self.fatMagic64 {
            let is64 = magicBE == Self.fatMagic64
            do {
                let count = try reader.u32be()
                guard count > 0, count <= Self.maxFatArchitectures else {
                    throw MachOError.malformed("fat header claims \(count) architectures")
                }
                var slices: [Slice] = []
                for _ in 0 ..< count {
                    let type = Int32(bitPattern: try reader.u32be())
                    let subtype = Int32(bitPattern: try reader.u32be())
                    let offset: UInt64, size: UInt64
                    if is64 {
                        offset = try reader.u64be(); size = try reader.u64be()
                        _ = try reader.u32be(); _ = try reader.u32be()  // align, reserved
                    } else {
                        offset = UInt64(try reader.u32be()); size = UInt64(try reader.u32be())
                        _ = try reader.u32be()  // align
                    }
                    guard offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset else {
                        throw MachOError.malformed("fat slice at \(offset) of \(size) bytes runs past the end of the \(bytes.count)-byte file")
                    }
                    slices.append(Slice(architecture: MachOArchitecture(cpuType: type, cpuSubtype: subtype), offset: Int(offset), size: Int(size)))
                }
                self.isFat = true
                self.slices = slices
            } catch let error as MachOError {
                throw error
            } catch {
                throw MachOError.malformed("fat header: \(error)")
            }
            return
        }
        reader.offset = 0
        let magic = (try? reader.u32le()) ?? 0
        guard magic == MachOImage.magic32 || magic == MachOImage.magic64 else {
            throw MachOError.notMachO(reason: "magic number is 0x\(String(magicBE, radix: 16)); big-endian or non-Mach-O files are not supported")
        }
        let type = Int32(bitPattern: (try? reader.u32le()) ?? 0)
        let subtype = Int32(bitPattern: (try? reader.u32le()) ?? 0)
        self.isFat = false
        self.slices = [Slice(architecture: MachOArchitecture(cpuType: type, cpuSubtype: subtype), offset: 0, size: bytes.count)]
    }

    /// The bytes of `slice` within `bytes` (the whole file this header was read from).
    public static func bytes(of slice: Slice, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[slice.offset ..< slice.offset + slice.size])
    }

    /// The slice for `architecture`, if present.
    public func slice(for architecture: MachOArchitecture) -> Slice? {
        slices.first { $0.architecture == architecture }
    }

    /// Whether `bytes` starts like a Mach-O or fat file.
    public static func looksLikeMachO(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 8 else { return false }
        var r = ByteReader(bytes)
        guard let be = try? r.u32be() else { return false }
        if be == fatMagic || be == fatMagic64 {
            let count = (try? r.u32be()) ?? 0
            return count > 0 && count <= maxFatArchitectures
        }
        r.offset = 0
        let magic = (try? r.u32le()) ?? 0
        return magic == MachOImage.magic32 || magic == MachOImage.magic64
    }
}
