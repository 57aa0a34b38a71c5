import Testing
@testable import BetaServer

@Suite struct RequestHeadParserTests {
    @Test func parsesRequestLineAndHeadersInOrder() throws {
        let head = try #require(try parseHead("GET /a/b?x=1 HTTP/1.1\r\nHost: example.com\r\nX-One:  spaced value \t\r\nx-one: 2\r\n\r\n"))
        #expect(head.method == .get)
        #expect(head.target == "/a/b?x=1")
        #expect(head.version == .http11)
        #expect(head.headers["host"] == "example.com")
        #expect(head.headers.values("X-ONE") == ["spaced value", "2"])
        #expect(head.framing == .none)
        #expect(head.keepAlive)
    }

    @Test func byteAtATimeFeedingGivesTheSameHeadAndStopsAtItsEnd() throws {
        let text = "POST /u HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\n"
        let (head, consumed) = try #require(try parseHeadIncrementally(text))
        #expect(head.method == .post)
        #expect(head.framing == .length(5))
        #expect(consumed == text.utf8.count - "helloGET / HTTP/1.1\r\n".utf8.count)
    }

    @Test func incompleteHeadAsksForMoreBytes() throws {
        #expect(try parseHead("GET / HTTP/1.1\r\nHost: h\r\n") == nil)
        #expect(try parseHead("GET / HTTP/1.1\r\nHost: h\r\n\r") == nil)
    }

    @Test func requestLineOverEightKiBIsAnswered414() {
        let long = "GET /" + String(repeating: "a", count: 8 * 1024) + " HTTP/1.1\r\nHost: h\r\n\r\n"
        let error = parseError(long)
        #expect(error == .requestLineTooLong(limit: 8192))
        #expect(error?.status.code == 414)
        // Detected before the line ends, so a client cannot stream an endless URI.
        #expect(parseError("GET /" + String(repeating: "a", count: 9000)) == .requestLineTooLong(limit: 8192))
    }

    @Test func requestLineJustUnderTheLimitIsAccepted() throws {
        let target = "/" + String(repeating: "a", count: 8 * 1024 - "GET  HTTP/1.1".count - 1)
        #expect(try parseHead("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")?.target == target)
    }

    @Test func headerSectionOver64KiBIsAnswered431() {
        var text = "GET / HTTP/1.1\r\nHost: h\r\n"
        for index in 0..<20 { text += "X-Big-\(index): " + String(repeating: "v", count: 4000) + "\r\n" }
        let error = parseError(text + "\r\n")
        #expect(error == .headerSectionTooLarge(limit: 65536))
        #expect(error?.status.code == 431)
        #expect(parseError(text) == .headerSectionTooLarge(limit: 65536))
    }

    @Test func moreThanOneHundredFieldsIsAnswered431() throws {
        var text = "GET / HTTP/1.1\r\nHost: h\r\n"
        for index in 0..<99 { text += "X-\(index): v\r\n" }
        #expect(try parseHead(text + "\r\n")?.headers.count == 100)
        let error = parseError(text + "X-Last: v\r\n\r\n")
        #expect(error == .tooManyHeaderFields(limit: 100))
        #expect(error?.status.code == 431)
    }

    @Test func limitsAreConfigurable() {
        var limits = HTTPLimits()
        limits.headerFields = 2
        limits.requestLineBytes = 20
        #expect(parseError("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\n\r\n", limits: limits) == .tooManyHeaderFields(limit: 2))
        #expect(parseError("GET /0123456789012345 HTTP/1.1\r\n", limits: limits) == .requestLineTooLong(limit: 20))
    }

    @Test func contentLengthTogetherWithTransferEncodingIsRejected() {
        let error = parseError("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(error == .contentLengthWithTransferEncoding)
        #expect(error?.status.code == 400)
    }

    @Test func duplicateContentLengthIsRejectedEvenWhenEqual() {
        #expect(parseError("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n") == .duplicateContentLength)
        #expect(parseError("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\n") == .duplicateContentLength)
    }

    @Test func conflictingContentLengthIsRejected() {
        let error = parseError("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n")
        #expect(error == .duplicateContentLength)
        #expect(error?.status.code == 400)
    }

    @Test(arguments: ["abc", "-1", "+5", "", "0x10", "1 2", "99999999999999999999"])
    func nonDecimalContentLengthIsRejected(value: String) {
        #expect(parseError("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(value)\r\n\r\n") == .invalidContentLength)
    }

    @Test func zeroContentLengthMeansNoBody() throws {
        #expect(try parseHead("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")?.framing == BodyFraming.none)
    }

    @Test func chunkedTransferEncodingIsRecognisedCaseInsensitively() throws {
        #expect(try parseHead("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n")?.framing == .chunked)
    }

    @Test func unsupportedTransferCodingsAreAnswered501() {
        let error = parseError("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        #expect(error == .unsupportedTransferEncoding("gzip"))
        #expect(error?.status.code == 501)
    }

    @Test func chunkedTwiceOrEmptyTransferEncodingIsRejected() {
        #expect(parseError("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n") == .invalidTransferEncoding)
        #expect(parseError("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n") == .invalidTransferEncoding)
        #expect(parseError("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \r\n\r\n") == .invalidTransferEncoding)
    }

    @Test func transferEncodingInHTTP10IsRejected() {
        #expect(parseError("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n") == .transferEncodingInHTTP10)
    }

    @Test(arguments: ["X-A: a\u{0}b", "X-A: a\u{1}b", "X-A: a\u{7F}b", "X-A: a\u{1B}[31m"])
    func controlCharactersInFieldValuesAreRejected(field: String) {
        #expect(parseError("GET / HTTP/1.1\r\nHost: h\r\n\(field)\r\n\r\n") == .invalidHeaderValue(name: "X-A"))
    }

    @Test func obsoleteTextInFieldValuesIsAllowed() throws {
        var bytes = Array("GET / HTTP/1.1\r\nHost: h\r\nX-A: caf".utf8)
        bytes += [0xC3, 0xA9]
        bytes += Array("\r\n\r\n".utf8)
        #expect(try parseHead(bytes)?.headers["X-A"] == "café")
    }

    @Test(arguments: ["X\"A: v", ": v", "X(A): v", "NoColon"])
    func invalidFieldNamesAreRejected(field: String) {
        #expect(parseError("GET / HTTP/1.1\r\nHost: h\r\n\(field)\r\n\r\n") == .invalidHeaderName)
    }

    @Test func whitespaceBeforeColonIsRejected() {
        let error = parseError("GET / HTTP/1.1\r\nHost: h\r\nX-A : v\r\n\r\n")
        #expect(error == .whitespaceBeforeColon)
        #expect(error?.status.code == 400)
    }

    @Test(arguments: ["GET / HTTP/1.1\r\nHost: h\r\nX-A: v\r\n continued\r\n\r\n",
                      "GET / HTTP/1.1\r\nHost: h\r\nX-A: v\r\n\tcontinued\r\n\r\n"])
    func obsoleteLineFoldingIsRejected(text: String) {
        #expect(parseError(text) == .obsoleteLineFolding)
    }

    @Test(arguments: ["GET / HTTP/1.1\rHost: h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n",
                      "GET / HTTP/1.1\r\nHost: h\r\n\r\r\n"])
    func bareCarriageReturnIsRejected(text: String) {
        let error = parseError(text)
        #expect(error == .bareCarriageReturn)
        #expect(error?.status.code == 400)
    }

    @Test(arguments: ["GET / HTTP/1.1\nHost: h\n\n", "GET / HTTP/1.1\r\nHost: h\n\r\n"])
    func bareLineFeedIsRejected(text: String) {
        #expect(parseError(text) == .bareLineFeed)
    }

    @Test(arguments: ["GET  / HTTP/1.1", "GET / HTTP/1.1 ", "GET /", " GET / HTTP/1.1", "GET\t/ HTTP/1.1", "GET /  HTTP/1.1"])
    func malformedRequestLinesAreRejected(line: String) {
        let error = parseError("\(line)\r\nHost: h\r\n\r\n")
        #expect(error != nil)
        #expect(error?.status.code == 400)
    }

    @Test func invalidMethodCharactersAreRejected() {
        #expect(parseError("G(T / HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidMethod)
    }

    @Test(arguments: ["relative/path", "/a\u{7F}b", "/caf\u{E9}"])
    func invalidTargetsAreRejected(target: String) {
        #expect(parseError("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidTarget)
    }

    @Test func asteriskAndAbsoluteFormTargetsAreAccepted() throws {
        #expect(try parseHead("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n")?.target == "*")
        #expect(parseError("GET * HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidTarget)
        let head = try #require(try parseHead("GET http://h/x?y HTTP/1.1\r\nHost: h\r\n\r\n"))
        let request = Request(method: head.method, target: head.target, headers: head.headers)
        #expect(request.path == "/x")
        #expect(request.query == "y")
    }

    @Test func anAbsoluteFormTargetsAuthorityReplacesTheHostHeader() throws {
        let head = try #require(try parseHead("GET http://user@beta.example.com:8443/t/abc HTTP/1.1\r\nHost: other\r\n\r\n"))
        let request = Request(method: head.method, target: head.target, headers: head.headers)
        #expect(request.host == "beta.example.com:8443")
        #expect(request.path == "/t/abc")
        #expect(request.baseURL == "http://beta.example.com:8443")
        let origin = try #require(try parseHead("GET /t/abc HTTP/1.1\r\nHost: other\r\n\r\n"))
        #expect(Request(method: origin.method, target: origin.target, headers: origin.headers).host == "other")
    }

    @Test(arguments: ["http:///x", "http://", "http://a@/x", "http://h\\x/"])
    func absoluteFormTargetsWithoutAValidAuthorityAreRejected(target: String) {
        #expect(parseError("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidTarget)
    }

    @Test func http11RequiresExactlyOneValidHost() throws {
        #expect(parseError("GET / HTTP/1.1\r\n\r\n") == .missingHost)
        #expect(parseError("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == .invalidHost)
        #expect(parseError("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n") == .invalidHost)
        #expect(try parseHead("GET / HTTP/1.0\r\n\r\n") != nil)
    }

    @Test func versionsOtherThanHTTP1AreAnswered505() {
        let error = parseError("GET / HTTP/2.0\r\nHost: h\r\n\r\n")
        #expect(error == .unsupportedVersion("HTTP/2.0"))
        #expect(error?.status.code == 505)
        #expect(parseError("GET / HTTP/1.10\r\nHost: h\r\n\r\n") == .malformedVersion)
        #expect(parseError("GET / http/1.1\r\nHost: h\r\n\r\n") == .malformedVersion)
    }

    @Test func higherMinorVersionIsTreatedAsHTTP11() throws {
        #expect(try parseHead("GET / HTTP/1.2\r\nHost: h\r\n\r\n")?.version == .http11)
    }

    @Test func connectionPersistenceFollowsVersionAndConnectionHeader() throws {
        #expect(try parseHead("GET / HTTP/1.1\r\nHost: h\r\n\r\n")?.keepAlive == true)
        #expect(try parseHead("GET / HTTP/1.1\r\nHost: h\r\nConnection: foo, Close\r\n\r\n")?.keepAlive == false)
        #expect(try parseHead("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(try parseHead("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")?.keepAlive == true)
    }

    @Test func expectContinueIsRecognisedAndOtherExpectationsAreAnswered417() throws {
        #expect(try parseHead("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nExpect: 100-Continue\r\n\r\n")?.expectsContinue == true)
        let error = parseError("PUT / HTTP/1.1\r\nHost: h\r\nExpect: teapot\r\n\r\n")
        #expect(error == .unsupportedExpectation("teapot"))
        #expect(error?.status.code == 417)
    }

    @Test func leadingEmptyLinesAreCountedForSkipping() {
        let bytes = Array("\r\n\r\nGET / HTTP/1.1\r\n".utf8)
        #expect(bytes.withUnsafeBytes { RequestHeadParser.leadingEmptyLines($0) } == 4)
    }

    @Test func everyErrorDescriptionExplainsTheFix() {
        let errors: [HTTPParseError] = [.bareLineFeed, .duplicateContentLength, .missingHost, .obsoleteLineFolding,
                                        .requestLineTooLong(limit: 8192), .contentLengthWithTransferEncoding]
        for error in errors { #expect(error.description.count > 20) }
    }
}
