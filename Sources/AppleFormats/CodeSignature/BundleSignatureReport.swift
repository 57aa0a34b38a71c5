/// The outcome of verifying the code signatures of a bundle (and everything nested in it) or of a lone Mach-O.
public struct BundleSignatureReport: Sendable, Equatable {
    /// One verified Mach-O.
    public struct Executable: Sendable, Equatable {
        /// Its path in the input.
        public var path: String
        /// Each slice's signature.
        public var slices: [SignedSliceSummary]
        /// The CDHashes of every CodeDirectory of every slice.
        public var cdHashes: [[UInt8]]

        /// A verified Mach-O.
        public init(path: String, slices: [SignedSliceSummary], cdHashes: [[UInt8]]) {
            self.path = path
            self.slices = slices
            self.cdHashes = cdHashes
        }
    }

    /// Every Mach-O verified, innermost first.
    public var executables: [Executable] = []
    /// Why iOS would refuse the input; empty when every signature and seal holds.
    public var problems: [CodeSignatureProblem] = []

    /// Whether every signature and seal holds.
    public var isValid: Bool { problems.isEmpty }

    /// An empty report.
    public init() {}
}
