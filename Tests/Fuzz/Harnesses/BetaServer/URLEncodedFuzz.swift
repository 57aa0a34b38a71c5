// Fuzzing only: compiled into the BetaServer module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
import AppleFormats

/// The urlencoded-form target.
public enum URLEncodedFuzz {
    /// Every target of this file.
    public static let targets: [String: FuzzTarget] = ["urlencoded": form]

    static let limits = URLEncodedForm.Limits(maxFields: 64, maxBytes: 8192)

    /// One input is a form body. Checked: what decodes encodes to text that decodes to the same
    /// fields; each field agrees with the older `PercentDecoding.decodeStrict` wherever that one
    /// can be asked (valid UTF-8 input); errors name a field that is in the input.
    static func form(_ input: UnsafeRawBufferPointer) {
        do {
            let form = try URLEncodedForm(decoding: input, limits: limits)
            fuzzCheck(form.fields.count <= limits.maxFields, "\(form.fields.count) fields, limit \(limits.maxFields)")
            let again = try URLEncodedForm(decoding: Array(form.encoded.utf8), limits: URLEncodedForm.Limits(maxFields: 64, maxBytes: .max))
            fuzzCheck(again == form, "encoded as \(form.encoded), the form decodes to \(again.fields)")
            var pairs = input.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).makeIterator()
            for field in form.fields {
                guard let pair = pairs.next() else {
                    fuzzCheck(false, "more fields than pairs")
                    return
                }
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                if let rawName = String(validating: pair[..<equals], as: UTF8.self) {
                    fuzzCheck(PercentDecoding.decodeStrict(rawName, plusAsSpace: true) == field.name, "the name \(rawName) decodes differently")
                }
            }
        } catch {
            fuzzConsume(error.description)
            switch error {
            case let .malformedEscape(field), let .invalidUTF8(field):
                fuzzCheck(field.utf8.count <= input.count * 3, "the error names a field longer than the input could hold")
            case .tooManyFields, .tooLarge:
                fuzzCheck(input.count > 0, "an empty form hit a limit")
            case .unreadableBody:
                fuzzCheck(false, "decoding bytes reported an unreadable body")
            }
        }
    }
}
