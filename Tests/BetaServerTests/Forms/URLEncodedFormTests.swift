import Foundation
import Testing
import TestSupport
@testable import BetaServer

@Suite struct URLEncodedFormTests {
    func decode(_ text: String, limits: URLEncodedForm.Limits = URLEncodedForm.Limits()) throws -> [URLEncodedForm.Field] {
        try URLEncodedForm(decoding: Array(text.utf8), limits: limits).fields
    }

    @Test func plusIsASpaceAndEscapesAreDecoded() throws {
        #expect(try decode("name=Ann+Lee&email=ann%40example.com&note=50%25+off%21") ==
                [.init("name", "Ann Lee"), .init("email", "ann@example.com"), .init("note", "50% off!")])
        #expect(try decode("a%2Bb=c%2bd") == [.init("a+b", "c+d")])
        #expect(try decode("city=M%C3%BCnchen&emoji=%F0%9F%93%B1") == [.init("city", "München"), .init("emoji", "📱")])
        #expect(try decode("multi=line%0D%0Atext") == [.init("multi", "line\r\ntext")])
    }

    @Test func repeatedKeysAreKeptInOrder() throws {
        let form = try URLEncodedForm(decoding: Array("group=qa&device=1&group=beta&group=".utf8))
        #expect(form.values(of: "group") == ["qa", "beta", ""])
        #expect(form["group"] == "qa")
        #expect(form["device"] == "1")
        #expect(form["missing"] == nil)
        #expect(form.fields.map(\.name) == ["group", "device", "group", "group"])
    }

    @Test func emptyPairsAreSkippedAndAMissingEqualsMeansAnEmptyValue() throws {
        #expect(try decode("") == [])
        #expect(try decode("&&a=1&&b&=x&") == [.init("a", "1"), .init("b", ""), .init("", "x")])
        #expect(try decode("a==b") == [.init("a", "=b")])
    }

    @Test(arguments: [
        ("note=50%", "note"), ("note=%zz", "note"), ("note=%4", "note"), ("no%te=1", "no%te"), ("a=1&b=%G1", "b"), ("%=x", "%"),
    ])
    func malformedEscapesAreErrorsNamingTheField(text: String, field: String) {
        #expect(throws: URLEncodedFormError.malformedEscape(field: field)) { try decode(text) }
    }

    @Test func invalidUTF8IsRefusedNotReplaced() {
        #expect(throws: URLEncodedFormError.invalidUTF8(field: "name")) { try decode("name=%FF") }
        #expect(throws: URLEncodedFormError.invalidUTF8(field: "name")) { try decode("name=%C3") }
        #expect(throws: URLEncodedFormError.invalidUTF8(field: "name")) { try decode("name=%ED%A0%80") }
        #expect(throws: URLEncodedFormError.invalidUTF8(field: "%C3%28")) { try decode("%C3%28=x") }
        #expect(throws: URLEncodedFormError.invalidUTF8(field: "raw")) { try URLEncodedForm(decoding: Array("raw=".utf8) + [0xE9]) }
    }

    @Test func limitsOnFieldsAndSize() throws {
        let limits = URLEncodedForm.Limits(maxFields: 3, maxBytes: 20)
        #expect(try decode("a=1&b=2&c=3", limits: limits).count == 3)
        #expect(throws: URLEncodedFormError.tooManyFields(limit: 3)) { try decode("a=1&b=2&c=3&d=4", limits: limits) }
        #expect(try decode("a=123456789012345678", limits: limits).count == 1)
        #expect(throws: URLEncodedFormError.tooLarge(size: 21, limit: 20)) { try decode("a=1234567890123456789", limits: limits) }
    }

    @Test func queryStringsDecodeTheSameWay() throws {
        let form = try URLEncodedForm(query: "token=abc%2Fdef&next=%2Ft%2Fx+y")
        #expect(form["token"] == "abc/def")
        #expect(form["next"] == "/t/x y")
        #expect(throws: URLEncodedFormError.malformedEscape(field: "token")) { try URLEncodedForm(query: "token=%") }
    }

    @Test func requestBodiesInMemoryAndSpooledAreRead() throws {
        #expect(try URLEncodedForm(body: .bytes(Array("a=1".utf8))).fields == [.init("a", "1")])
        #expect(try URLEncodedForm(body: .empty).fields == [])
        #expect(throws: URLEncodedFormError.tooLarge(size: 10, limit: 5)) {
            try URLEncodedForm(body: .bytes(Array("a=12345678".utf8)), limits: URLEncodedForm.Limits(maxBytes: 5))
        }
    }

    @Test func encodingBuildsLinksThatDecodeBack() throws {
        var form = URLEncodedForm()
        form.append("token", "a/b+c d")
        form.append("name", "Zoë & \"Ann\" <ok>")
        form.append("group", "qa")
        form.append("group", "~beta*")
        #expect(form.encoded == "token=a%2Fb%2Bc+d&name=Zo%C3%AB+%26+%22Ann%22+%3Cok%3E&group=qa&group=%7Ebeta*")
        #expect(try URLEncodedForm(decoding: Array(form.encoded.utf8)) == form)
        #expect(URLEncodedForm.encode("-._*09azAZ") == "-._*09azAZ")
        #expect(URLEncodedForm.encode("") == "")
    }

    @Test func encodingMatchesPythonsUrlencode() async throws {
        let fields = [URLEncodedForm.Field("q", "a b&c=d/é~"), .init("empty", ""), .init("sym", "!'()*-._")]
        let result = try await runTool("python3", ["-c", "import urllib.parse,sys; sys.stdout.write(urllib.parse.urlencode([('q','a b&c=d/é~'),('empty',''),('sym',\"!'()*-._\")]))"])
        #expect(result.status == 0, "\(result.error)")
        // Python leaves ~ unescaped (RFC 3986 unreserved); both decode to the same fields.
        #expect(try URLEncodedForm(decoding: Array(result.output)).fields == fields)
        #expect(try URLEncodedForm(decoding: Array(URLEncodedForm(fields).encoded.utf8)).fields == fields)
        let decoded = try await runTool("python3", ["-c", "import urllib.parse,sys,json; sys.stdout.write(json.dumps(urllib.parse.parse_qsl(sys.stdin.read(), keep_blank_values=True)))"],
                                        input: Data(URLEncodedForm(fields).encoded.utf8))
        let pairs = try JSONDecoder().decode([[String]].self, from: decoded.output)
        #expect(pairs == fields.map { [$0.name, $0.value] })
    }

    @Test func errorsMapToStatusesAndSaySentences() {
        #expect(URLEncodedFormError.malformedEscape(field: "a").httpStatus == .badRequest)
        #expect(URLEncodedFormError.invalidUTF8(field: "a").httpStatus == .badRequest)
        #expect(URLEncodedFormError.tooManyFields(limit: 1).httpStatus == .contentTooLarge)
        #expect(URLEncodedFormError.tooLarge(size: 2, limit: 1).httpStatus == .contentTooLarge)
        #expect(URLEncodedFormError.malformedEscape(field: "note").description == "the form field \"note\" has a % not followed by two hexadecimal digits; encode a literal % as %25")
        #expect(URLEncodedFormError.malformedEscape(field: "a\nb").description.contains("\"a?b\""))
    }

    @Test func randomInputGivesFieldsThatReencodeOrATypedError() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array("ab=&%+2FCé\u{1}zZ09".utf8) + [0xFF, 0xC3]
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 40) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            do {
                let form = try URLEncodedForm(decoding: bytes)
                // What decoded encodes to text that decodes to the same fields.
                #expect(try URLEncodedForm(decoding: Array(form.encoded.utf8)) == form)
            } catch {
                switch error {
                case .malformedEscape(let field), .invalidUTF8(let field):
                    #expect(bytes.count > 0 && !field.contains("&"), "\(bytes)")
                default:
                    Issue.record("\(bytes) gave \(error)")
                }
            }
        }
    }
}
