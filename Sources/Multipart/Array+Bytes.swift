extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body with typed throws (the standard one rethrows `any Error`).
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws(MultipartError) -> Result) throws(MultipartError) -> Result {
        let outcome: Swift.Result<Result, MultipartError> = withUnsafeBytes { bytes in
            Swift.Result { () throws(MultipartError) -> Result in try body(bytes) }
        }
        return try outcome.get()
    }
}
