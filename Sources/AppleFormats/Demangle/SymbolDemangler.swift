#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The Swift runtime's demanglers, linked directly rather than looked up with dlsym: a betactl
// release build carries the runtime inside the executable (Package.swift), where dlsym cannot
// see it. Only pointers and integers cross, which the Swift and C calling conventions pass alike.
@_silgen_name("swift_demangle")
private func runtimeFullDemangle(_ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
                                 _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32) -> UnsafeMutablePointer<CChar>?

#if os(Linux)
@_silgen_name("_swift_backtrace_demangle")
private func runtimeSimplifiedDemangle(_ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
                                       _ outputBufferSize: UnsafeMutablePointer<Int>?) -> UnsafeMutablePointer<CChar>?
#endif

/// Turns raw symbol names into the form Apple's crash reports show.
///
/// Swift names go through the Swift runtime's own demangler: `_swift_backtrace_demangle`, which
/// gives the simplified form Xcode shows (`ViewController.viewDidLoad()`), or where the runtime
/// lacks it (older Darwin runtimes) `swift_demangle`, which gives the full form. C++ names go
/// through `__cxa_demangle`. Objective-C and C names are returned unchanged. No demangling code
/// lives here.
public enum SymbolDemangler {
    #if !os(Linux)
    private typealias SimplifiedDemangle = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?
    ) -> UnsafeMutablePointer<CChar>?

    // On Darwin the simplified entry point is looked up at run time: not every OS has it.
    private static let simplifiedAddress = address(of: "_swift_backtrace_demangle")
    #endif

    private typealias CXXDemangle = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
    ) -> UnsafeMutablePointer<CChar>?

    // The C++ runtime stays a shared library in every build, so it is found with dlsym (the
    // executable does not link it directly).
    private static let cxxAddress = address(of: "__cxa_demangle")

    /// Where the process's loaded images define `symbol`; 0 when none does. (An address rather
    /// than a pointer, so that the cached statics are Sendable.)
    private static func address(of symbol: String) -> UInt {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, symbol) else { return 0 }
        return UInt(bitPattern: address)
    }

    /// Whether `name` is a mangled Swift symbol (current `$s`/`$e` manglings and the Swift 3-4 `_T` forms).
    public static func isSwiftSymbol(_ name: String) -> Bool {
        // Byte comparisons on the first bytes: symbol names are bytes, and String.hasPrefix is far
        // slower. The prefixes: $s $S $e, _$s _$S _$e, @__swiftmacro_, _T0 _Tt _TF _TW _TM _TT _TZ _TP, __T.
        let (first, second, third) = leadingBytes(name)
        switch (first, second) {
        case (UInt8(ascii: "$"), _): return isSwiftManglingKind(second)
        case (UInt8(ascii: "_"), UInt8(ascii: "$")): return isSwiftManglingKind(third)
        case (UInt8(ascii: "_"), UInt8(ascii: "_")): return third == UInt8(ascii: "T")
        case (UInt8(ascii: "_"), UInt8(ascii: "T")):
            switch third {
            case UInt8(ascii: "0"), UInt8(ascii: "t"), UInt8(ascii: "F"), UInt8(ascii: "W"), UInt8(ascii: "M"), UInt8(ascii: "T"),
                 UInt8(ascii: "Z"), UInt8(ascii: "P"): return true
            default: return false
            }
        case (UInt8(ascii: "@"), UInt8(ascii: "_")): return name.utf8.starts(with: "@__swiftmacro_".utf8)
        default: return false
        }
    }

    private static func isSwiftManglingKind(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "s") || byte == UInt8(ascii: "S") || byte == UInt8(ascii: "e")
    }

    /// The first three bytes of `name`, 0 past its end.
    private static func leadingBytes(_ name: String) -> (UInt8, UInt8, UInt8) {
        var bytes = name.utf8.makeIterator()
        let first = bytes.next() ?? 0, second = first == 0 ? 0 : bytes.next() ?? 0, third = second == 0 ? 0 : bytes.next() ?? 0
        return (first, second, third)
    }

    /// Whether `name` is an Itanium C++ mangled name (`_Z…`, or `__Z…`/`___Z…` as Mach-O symbol tables and blocks have).
    public static func isCXXSymbol(_ name: String) -> Bool {
        let (first, second, third) = leadingBytes(name)
        guard first == UInt8(ascii: "_") else { return false }
        if second == UInt8(ascii: "Z") { return true }
        guard second == UInt8(ascii: "_") else { return false }
        return third == UInt8(ascii: "Z") || name.utf8.starts(with: "___Z".utf8)
    }

    /// The display form of `name`: demangled when it is a Swift or C++ symbol the runtime can
    /// demangle, unchanged otherwise (including Objective-C `-[Class selector]` names).
    public static func demangle(_ name: String) -> String {
        if isSwiftSymbol(name) { return swift(name) ?? name }
        if isCXXSymbol(name) { return cxx(name) ?? name }
        return name
    }

    /// The simplified Swift demangling, or the full one if the runtime lacks the simplified entry point.
    public static func swift(_ name: String) -> String? {
        var copy = name
        return copy.withUTF8 { utf8 -> String? in
            guard let base = utf8.baseAddress else { return nil }
            let pointer = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            #if os(Linux)
            let result = runtimeSimplifiedDemangle(pointer, utf8.count, nil, nil)
            #else
            var result: UnsafeMutablePointer<CChar>?
            if simplifiedAddress != 0 {
                let function = unsafeBitCast(UnsafeRawPointer(bitPattern: simplifiedAddress), to: SimplifiedDemangle.self)
                result = function(pointer, utf8.count, nil, nil)
            }
            #endif
            return take(result ?? runtimeFullDemangle(pointer, utf8.count, nil, nil, 0))
        }
    }

    /// The `__cxa_demangle` output for an Itanium name.
    public static func cxx(_ name: String) -> String? {
        // Mach-O symbol tables add one underscore; __cxa_demangle expects `_Z` (blocks keep `___Z`).
        guard cxxAddress != 0 else { return nil }
        let input = name.hasPrefix("__Z") && !name.hasPrefix("___Z") ? String(name.dropFirst()) : name
        var status: Int32 = 0
        let function = unsafeBitCast(UnsafeRawPointer(bitPattern: cxxAddress), to: CXXDemangle.self)
        let result = input.withCString { function($0, nil, nil, &status) }
        guard status == 0 else {
            free(result)
            return nil
        }
        return take(result)
    }

    private static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        let text = String(cString: pointer)
        return text.isEmpty ? nil : text
    }
}
