import Testing
@testable import Multipart

@Suite struct BoundaryTests {
    @Test(arguments: [
        ("multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW", "----WebKitFormBoundary7MA4YWxkTrZu0gW"),
        ("multipart/form-data; boundary=\"simple boundary\"", "simple boundary"),
        ("Multipart/Form-Data; BOUNDARY=abc", "abc"),
        ("multipart/form-data;boundary=abc", "abc"),
        ("multipart/form-data ; charset=utf-8; boundary=abc ;", "abc"),
        ("multipart/form-data; boundary=\"===============8309221446741399211==\"", "===============8309221446741399211=="),
        ("multipart/form-data; boundary=----=_Part_0_1234.5678", "----=_Part_0_1234.5678"),
        ("multipart/form-data; boundary=\"a\\\"b\"", nil),
        ("multipart/form-data; boundary=\"a\\:b\"", "a:b"),
        ("multipart/form-data; boundary=\"'()+_,-./:=? x\"", "'()+_,-./:=? x"),
    ] as [(String, String?)])
    func boundaryIsReadFromTheContentType(contentType: String, expected: String?) throws {
        let result = Result { () throws(MultipartError) in try MultipartBoundary(contentType: contentType).value }
        if let expected {
            #expect(try result.get() == expected)
        } else {
            // A quote is not a bchar even when escaped.
            #expect(throws: MultipartError.self) { try result.get() }
        }
    }

    @Test func theBoundaryMayBeSeventyCharactersButNotSeventyOne() throws {
        let seventy = String(repeating: "a", count: 70)
        #expect(try MultipartBoundary(contentType: "multipart/form-data; boundary=" + seventy).value == seventy)
        #expect(throws: MultipartError.invalidBoundary(boundary: seventy + "a", reason: "it is 71 characters long, more than 70")) {
            try MultipartBoundary(contentType: "multipart/form-data; boundary=" + seventy + "a")
        }
    }

    @Test func invalidBoundariesAreRefusedSayingWhy() {
        #expect(throws: MultipartError.invalidBoundary(boundary: "", reason: "it is empty")) {
            try MultipartBoundary(contentType: "multipart/form-data; boundary=\"\"")
        }
        #expect(throws: MultipartError.invalidBoundary(boundary: "ab ", reason: "it ends with a space")) {
            try MultipartBoundary(contentType: "multipart/form-data; boundary=\"ab \"")
        }
        #expect(throws: MultipartError.invalidBoundary(boundary: "a!b", reason: "it contains \"!\"")) {
            try MultipartBoundary(contentType: "multipart/form-data; boundary=a!b")
        }
        #expect(throws: MultipartError.invalidBoundary(boundary: "naïve", reason: "it contains byte 0xC3")) {
            try MultipartBoundary(contentType: "multipart/form-data; boundary=\"naïve\"")
        }
    }

    @Test func aMissingOrRepeatedBoundaryIsRefused() {
        #expect(throws: MultipartError.missingBoundary(contentType: "multipart/form-data")) {
            try MultipartBoundary(contentType: "multipart/form-data")
        }
        #expect(throws: MultipartError.missingBoundary(contentType: "multipart/form-data; charset=utf-8")) {
            try MultipartBoundary(contentType: "multipart/form-data; charset=utf-8")
        }
        #expect(throws: MultipartError.malformedContentType(contentType: "multipart/form-data; boundary=a; Boundary=b", reason: "it has 2 boundary parameters")) {
            try MultipartBoundary(contentType: "multipart/form-data; boundary=a; Boundary=b")
        }
    }

    @Test func otherMediaTypesAndBrokenParametersAreRefused() {
        #expect(throws: MultipartError.notFormData(contentType: "multipart/mixed; boundary=a")) {
            try MultipartBoundary(contentType: "multipart/mixed; boundary=a")
        }
        #expect(throws: MultipartError.notFormData(contentType: "application/x-www-form-urlencoded")) {
            try MultipartBoundary(contentType: "application/x-www-form-urlencoded")
        }
        for broken in ["", "multipart", "multipart/form-data; boundary", "multipart/form-data; boundary=\"abc",
                       "multipart/form-data boundary=abc", "multipart/form-data; boundary = abc", "multipart/form-data; =abc"] {
            let error = Result { () throws(MultipartError) in try MultipartBoundary(contentType: broken) }.error
            guard case .malformedContentType = error else {
                Issue.record("\(broken.debugDescription) gave \(String(describing: error)), not malformedContentType")
                continue
            }
        }
    }

    @Test func theDelimiterIsCRLFDashDashBoundary() throws {
        #expect(try MultipartBoundary("b1").delimiter == Array("\r\n--b1".utf8))
    }
}

