#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns raw symbol names into the form Apple's crash reports show.
///
/// Swift names go through the Swift runtime's own demangler, found in the running process
/// (libswiftCore exports it on Linux and macOS): `_swift_backtrace_demangle`, which gives
/// the simplified form Xcode shows (`ViewController.viewDidLoad()`), or failing that
/// `swift_demangle`, which gives the full form. C++ names go through `__cxa_demangle`.
/// Objective-C and C names are returned unchanged. No demangling code lives here.
public enum SymbolDemangler {
    private typealias SimplifiedDemangle = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?
    ) -> UnsafeMutablePointer<CChar>?
    private typealias FullDemangle = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?
    private typealias CXXDemangle = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
    ) -> UnsafeMutablePointer<CChar>?

    // Addresses (as integers, which are Sendable) of the runtime entry points, looked up once.
    private static let simplifiedAddress: UInt = lookup("_swift_backtrace_demangle")
    private static let fullAddress: UInt = lookup("swift_demangle")
    private static let cxxAddress: UInt = lookup("__cxa_demangle")

    private static func lookup(_ symbol: String) -> UInt {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, symbol) else { return 0 }
        return UInt(bitPattern: address)
    }

    /// Whether the Swift runtime's demangler could be found in this process.
    public static var hasSwiftDemangler: Bool { simplifiedAddress != 0 || fullAddress != 0 }

    /// Whether `name` is a mangled Swift symbol (current `$s`/`$e` manglings and the Swift 3-4 `_T` forms).
    public static func isSwiftSymbol(_ name: String) -> Bool {
        for prefix in ["$s", "$S", "$e", "_$s", "_$S", "_$e", "@__swiftmacro_", "_T0", "_Tt", "_TF", "_TW", "_TM", "_TT", "_TZ", "_TP", "__T"]
            where name.hasPrefix(prefix) {
            return true
        }
        return false
    }

    /// Whether `name` is an Itanium C++ mangled name (`_Z…`, or `__Z…`/`___Z…` as Mach-O symbol tables and blocks have).
    public static func isCXXSymbol(_ name: String) -> Bool {
        name.hasPrefix("_Z") || name.hasPrefix("__Z") || name.hasPrefix("___Z")
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
            var result: UnsafeMutablePointer<CChar>?
            if simplifiedAddress != 0 {
                let function = unsafeBitCast(UnsafeRawPointer(bitPattern: simplifiedAddress), to: SimplifiedDemangle.self)
                result = function(pointer, utf8.count, nil, nil)
            }
            if result == nil, fullAddress != 0 {
                let function = unsafeBitCast(UnsafeRawPointer(bitPattern: fullAddress), to: FullDemangle.self)
                result = function(pointer, utf8.count, nil, nil, 0)
            }
            return take(result)
        }
    }

    /// The `__cxa_demangle` output for an Itanium name.
    public static func cxx(_ name: String) -> String? {
        guard cxxAddress != 0 else { return nil }
        let function = unsafeBitCast(UnsafeRawPointer(bitPattern: cxxAddress), to: CXXDemangle.self)
        // Mach-O symbol tables add one underscore; __cxa_demangle expects `_Z` (blocks keep `___Z`).
        let input = name.hasPrefix("__Z") && !name.hasPrefix("___Z") ? String(name.dropFirst()) : name
        var status: Int32 = 0
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
