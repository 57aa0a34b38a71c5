import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct SymbolDemanglerTests {
    /// expected/names.tsv records what `swift-demangle --simplified` and llvm-cxxfilt print for
    /// every name in the generated fixtures.
    @Test func namesMatchTheOracleDemanglers() throws {
        let text = try String(contentsOf: LocalFixtures.url("symbols/expected/names.tsv"), encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            try #require(fields.count == 2)
            #expect(SymbolDemangler.demangle(fields[0]) == fields[1], "\(fields[0])")
            checked += 1
        }
        #expect(checked > 20)
    }

    @Test func swiftRuntimeDemanglerIsFound() {
        #expect(SymbolDemangler.demangle("$s7Fixture7compute_5labelBi64_Bi64__Bi64_tF") == "compute(_:label:)")
    }

    @Test func objectiveCAndCNamesStayAsTheyAre() {
        #expect(SymbolDemangler.demangle("-[CRLCrashNULL crash]") == "-[CRLCrashNULL crash]")
        #expect(SymbolDemangler.demangle("main") == "main")
        #expect(SymbolDemangler.demangle("__exceptionPreprocess") == "__exceptionPreprocess")
    }

    @Test func machOSymbolTableFormsAreDemangledToo() {
        // Symbol tables keep one extra underscore on C++ names; Swift 3 names start with _T.
        #expect(SymbolDemangler.demangle("__ZN6shapes10total_areaEPKii") == "shapes::total_area(int const*, int)")
    }

    @Test func swift3ManglingTheRuntimeCannotReadStaysRaw() {
        // The runtime's demangler dropped the pre-Swift 4 mangling; the raw name is shown rather than a guess.
        #expect(SymbolDemangler.isSwiftSymbol("_TFC11CrashLibiOS13CRLCrashSwift5crashfT_T_"))
        #expect(SymbolDemangler.demangle("_TFC11CrashLibiOS13CRLCrashSwift5crashfT_T_") == "_TFC11CrashLibiOS13CRLCrashSwift5crashfT_T_")
    }

    @Test func malformedManglingsFallBackToTheRawName() {
        #expect(SymbolDemangler.demangle("$s") == "$s")
        #expect(SymbolDemangler.demangle("_Z") == "_Z")
        #expect(SymbolDemangler.demangle("$s\u{1}\u{2}garbage") == "$s\u{1}\u{2}garbage")
    }
}
