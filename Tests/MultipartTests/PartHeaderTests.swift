import Testing
@testable import Multipart

/// Part headers: Content-Disposition parameters (RFC 7578 §4.2, RFC 6266, RFC 8187), Content-Type,
/// and the header syntax rules.
@Suite struct PartHeaderTests {
    let b = Bodies.boundary

    /// Parses one part with the given header lines and returns its head or the error.
    func head(_ lines: [String]) -> Result<MultipartPartHead, MultipartError> {
        let text = "--\(b)\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\nbody\r\n--\(b)--\r\n"
        switch parse(Array(text.utf8)) {
        case .parts(let parts):
            guard let first = parts.first, parts.count == 1, first.body == Array("body".utf8) else {
                return .failure(.consumerFailed(part: .init(number: 0), reason: "unexpected parts \(parts)"))
            }
            return .success(first.head)
        case .failed(let error):
            return .failure(error)
        }
    }

    func disposition(_ value: String) -> Result<MultipartPartHead, MultipartError> { head(["Content-Disposition: " + value]) }

    @Test(arguments: [
        ("form-data; name=\"report\"; filename=\"app.crash\"", "report", "app.crash"),
        ("form-data; name=report; filename=app.crash", "report", "app.crash"),
        ("Form-Data; NAME=\"a\"; FileName=\"b.txt\"", "a", "b.txt"),
        ("form-data;name=\"a\";filename=\"b\"", "a", "b"),
        ("form-data; name=\"q\\\"uote\"; filename=\"back\\\\slash\\x.txt\"", "q\"uote", "back\\slashx.txt"),
        ("form-data; name=\"naïve\"; filename=\"résumé 2024.pdf\"", "naïve", "résumé 2024.pdf"),
        ("form-data; name=\"file\"; filename=\"\"", "file", ""),
        ("form-data; name=\"\"", "", nil),
        ("form-data; name=\"a\"; size=123; creation-date=\"Wed, 12 Feb 1997 16:29:51 -0500\"", "a", nil),
        ("form-data; name=\"a\"; filename*=UTF-8''na%C3%AFve%20file.txt", "a", "naïve file.txt"),
        ("form-data; name=\"a\"; filename=\"fallback.txt\"; filename*=utf-8'en'%E2%82%AC%20rates.txt", "a", "€ rates.txt"),
        ("form-data; name=\"a\"; filename*=UTF-8''first.txt; filename=\"second.txt\"", "a", "first.txt"),
        ("form-data; name=\"a\"; filename*=iso-8859-1''%A3%20rates.txt", "a", "£ rates.txt"),
        ("form-data; name=\"a\"; filename*=\"UTF-8''quoted.txt\"", "a", "quoted.txt"),
    ] as [(String, String, String?)])
    func contentDispositionGivesTheNameAndFilename(value: String, name: String, filename: String?) throws {
        let parsed = try disposition(value).get()
        #expect(parsed.name == name)
        #expect(parsed.filename == filename)
    }

    @Test(arguments: [
        ("attachment; name=\"a\"", "its type is \"attachment\", not form-data"),
        ("form-data", "it has no name parameter"),
        ("form-data; filename=\"x\"", "it has no name parameter"),
        ("form-data; name=\"a\"; name=\"b\"", "the parameter name appears 2 times"),
        ("form-data; name=\"a\"; Filename=\"x\"; filename=\"y\"", "the parameter filename appears 2 times"),
        ("form-data; name=\"a", "the quoted value of the parameter name is not closed"),
        ("form-data; name=a b", "\"b\" stands where \";\" or the end was expected"),
        ("form-data; name=a/b", "the unquoted name value is not a token (quote it)"),
        ("form-data; name", "the parameter name has no \"=\" directly after its name"),
        ("; name=\"a\"", "it does not start with a token"),
    ])
    func malformedContentDispositionsAreRefusedSayingWhy(value: String, reason: String) {
        #expect(disposition(value).error == .invalidContentDisposition(part: .init(number: 1), reason: reason))
    }

    @Test(arguments: [
        ("UTF-8''%E2%82", "filename* is not valid UTF-8"),
        ("UTF-8''a%2", "filename* has a malformed %-escape"),
        ("UTF-8''a%zz", "filename* has a malformed %-escape"),
        ("UTF-8''a b", nil),
        ("UTF-8''a;b", nil),
        ("UTF-8''a\"b", nil),
        ("UTF-8'a.txt", "filename* is not charset'language'value"),
        ("a.txt", "filename* is not charset'language'value"),
        ("Shift_JIS''%82%A0", "filename* uses the charset \"shift_jis\"; use UTF-8"),
        ("UTF-8'e_n'a", "filename* has a malformed language tag"),
        ("UTF-8''a*b", "filename* contains \"*\", which must be %-encoded"),
    ] as [(String, String?)])
    func malformedExtendedFilenamesAreRefused(value: String, reason: String?) {
        let error = disposition("form-data; name=\"f\"; filename*=" + value).error
        if let reason {
            #expect(error == .invalidContentDisposition(part: .init(number: 1, name: "f"), reason: reason))
        } else {
            // Characters that end an unquoted value leave text the parameter syntax refuses.
            guard case .invalidContentDisposition = error else {
                Issue.record("filename*=\(value) gave \(String(describing: error))")
                return
            }
        }
    }

    @Test func contentTypeDefaultsToTextPlainAndOtherFieldsAreKept() throws {
        let plain = try head(["Content-Disposition: form-data; name=\"a\""]).get()
        #expect(plain.contentType == "text/plain")
        let typed = try head(["content-disposition: form-data; name=\"xml\"; filename=\"crash.xml\"", "CONTENT-TYPE:text/xml ",
                              "Content-Transfer-Encoding: binary", "X-Extra:  kept  "]).get()
        #expect(typed.contentType == "text/xml")
        #expect(typed.field("x-extra") == "kept")
        #expect(typed.field("Content-Transfer-Encoding") == "binary")
        #expect(typed.fields.map(\.name) == ["content-disposition", "CONTENT-TYPE", "Content-Transfer-Encoding", "X-Extra"])
    }

    @Test func headerSyntaxErrorsNameThePart() {
        let part = MultipartError.Part(number: 1)
        #expect(head(["Content-Disposition: form-data; name=\"a\"", " folded"]).error == .malformedHeader(part: part, reason: "a line starts with whitespace (folded header lines are not accepted)"))
        #expect(head(["Content-Disposition: form-data;", "\tname=\"a\""]).error == .malformedHeader(part: part, reason: "a line starts with whitespace (folded header lines are not accepted)"))
        #expect(head(["Content-Disposition: form-data; name=\"a\"", "no colon here"]).error == .malformedHeader(part: part, reason: "the line \"no colon here\" has no colon"))
        #expect(head(["Content-Disposition : form-data; name=\"a\""]).error == .malformedHeader(part: part, reason: "the field name \"Content-Disposition \" is followed by whitespace before the colon"))
        #expect(head(["Content-Disposition: form-data; name=\"a\"", ": value"]).error == .malformedHeader(part: part, reason: "a field has no name"))
        #expect(head(["Content-Disposition: form-data; name=\"a\"", "Bad(name): value"]).error == .malformedHeader(part: part, reason: "the field name \"Bad(name)\" is not a token"))
        #expect(head(["Content-Disposition: form-data; name=\"a\"", "X: a\u{1}b"]).error == .malformedHeader(part: part, reason: "the field X contains a control character"))
        #expect(head(["Content-Disposition: form-data; name=\"a\"", "Content-Disposition: form-data; name=\"b\""]).error == .malformedHeader(part: part, reason: "it has 2 Content-Disposition fields"))
        #expect(head(["Content-Disposition: form-data; name=\"a\"", "Content-Type: a/b", "content-type: c/d"]).error == .malformedHeader(part: part, reason: "it has 2 Content-Type fields"))
        #expect(head(["Content-Disposition: form-data; name=\"a\"", "Content-Type:"]).error == .malformedHeader(part: .init(number: 1, name: "a"), reason: "its Content-Type is empty"))
    }

    @Test func headersMustBeUTF8() {
        let text = Array("--\(b)\r\nContent-Disposition: form-data; name=\"".utf8) + [0xE9] + Array("\"\r\n\r\nv\r\n--\(b)--".utf8)
        #expect(parse(text) == .failed(.malformedHeader(part: .init(number: 1), reason: "the field Content-Disposition is not valid UTF-8")))
    }

    @Test func aPartWithoutHeadersOrWithoutContentDispositionIsRefused() {
        let none = Array("--\(b)\r\n\r\nvalue\r\n--\(b)--".utf8)
        #expect(parse(none) == .failed(.missingContentDisposition(part: .init(number: 1))))
        #expect(head(["Content-Type: text/plain"]).error == .missingContentDisposition(part: .init(number: 1)))
    }

    @Test func onlyIdentityTransferEncodingsAreAccepted() throws {
        for identity in ["7bit", "8BIT", "binary"] {
            #expect(try head(["Content-Disposition: form-data; name=\"a\"", "Content-Transfer-Encoding: " + identity]).get().name == "a")
        }
        #expect(head(["Content-Disposition: form-data; name=\"a\"", "Content-Transfer-Encoding: base64"]).error == .unsupportedTransferEncoding(part: .init(number: 1, name: "a"), encoding: "base64"))
    }

    @Test func theSecondPartsErrorsCountFromOne() {
        let text = "--\(b)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--\(b)\r\nContent-Disposition: form-data\r\n\r\n2\r\n--\(b)--"
        #expect(parse(Array(text.utf8)) == .failed(.invalidContentDisposition(part: .init(number: 2), reason: "it has no name parameter")))
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
