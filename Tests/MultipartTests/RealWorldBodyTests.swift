import Foundation
import Testing
import TestSupport
@testable import Multipart

/// Bodies as real clients send them, checked byte for byte.
@Suite struct RealWorldBodyTests {
    func parseAll(_ body: [UInt8], boundary: String, stripsCRLF: Bool = false) throws -> [ParsedPart] {
        var parser = MultipartParser(boundary: try MultipartBoundary(boundary), stripsCRLFBeforeCloseDelimiter: stripsCRLF) { _ in CollectingConsumer() }
        try parser.feed(body)
        return try parser.finish().map { ParsedPart(head: $0.head, body: $0.value) }
    }

    func texts(_ parts: [ParsedPart]) -> [String] { parts.map { "\($0.head.name)=\(String(decoding: $0.body, as: UTF8.self))" } }

    @Test func hockeySDKCrashUploadParsesToTheValuesTheSDKMeant() throws {
        let body = HockeySDKBodies.crashUpload()
        // The exact bytes BITCrashManager.postBodyWithXML produces: every part is written as
        // `value CRLF`, then `CRLF --boundary-- CRLF` closes the body.
        let ending = Array("\u{1}\u{2}binary attachment\r\n\r\n------FOO--\r\n".utf8)
        #expect(Array(body.bytes.suffix(ending.count)) == ending)
        let parts = try parseAll(body.bytes, boundary: HockeySDKBodies.boundary, stripsCRLF: true)
        #expect(parts.map(\.head.name) == ["sdk", "sdk_version", "feedbackEnabled", "xml", "attachment0"])
        #expect(parts.map(\.body) == body.values)
        #expect(parts[3].head.filename == "crash.xml")
        #expect(parts[3].head.contentType == "text/xml")
        #expect(parts[3].head.field("Content-Transfer-Encoding") == "binary")
        #expect(parts[4].head.filename == "attachment.bin")
        #expect(parts[0].head.contentType == "text")
    }

    @Test func withoutTheHockeySDKOptionTheLastPartKeepsTheCRLFAsRFC2046Says() throws {
        let body = HockeySDKBodies.crashUpload()
        let parts = try parseAll(body.bytes, boundary: HockeySDKBodies.boundary)
        #expect(parts.map(\.body).dropLast() == body.values.dropLast())
        #expect(parts.last?.body == body.values.last.map { $0 + [0x0D, 0x0A] })
    }

    @Test func theHockeySDKOptionStripsOneCRLFFromTheLastPartOnly() throws {
        // Values ending in CRLF keep it: only the one CRLF the SDK adds is dropped.
        let legacy = HockeySDKBodies.legacyCrashUpload(values: ["xml": "<crash/>\r\n", "log": "line 1\r\nline 2\r\n", "description": "Tapped save",
                                                                "userID": "42", "contact": "ann@example.com", "attachment0": "\r\n"])
        let parts = try parseAll(legacy.bytes, boundary: HockeySDKBodies.boundary, stripsCRLF: true)
        #expect(texts(parts) == ["xml=<crash/>\r\n", "log=line 1\r\nline 2\r\n", "description=Tapped save", "userID=42",
                                 "contact=ann@example.com", "attachment0=\r\n"])
        // A body from a client that does not add the extra CRLF is read the same with the option on,
        // as long as its last value does not itself end in CRLF.
        let browser = try parseAll(BrowserBodies.chromeForm, boundary: BrowserBodies.chromeBoundary, stripsCRLF: true)
        #expect(browser == (try parseAll(BrowserBodies.chromeForm, boundary: BrowserBodies.chromeBoundary)))
    }

    @Test func aBrowserFormWithTwoFilesParsesByteForByte() throws {
        let parts = try parseAll(BrowserBodies.chromeForm, boundary: BrowserBodies.chromeBoundary)
        #expect(parts.map(\.head.name) == ["description", "report", "report", "screenshot"])
        #expect(parts[0].body == Array("The app crashed when I tapped Save.\r\nTwice.".utf8))
        #expect(parts[0].head.filename == nil)
        #expect(parts[1].head.filename == "MyApp-2024-05-01-101112.ips")
        #expect(parts[1].head.contentType == "application/octet-stream")
        #expect(parts[1].body == BrowserBodies.ipsReport)
        // Browsers send non-ASCII file names as raw UTF-8 and a quote as %22; the name is kept as sent.
        #expect(parts[2].head.filename == "naïve %22report%22.crash")
        #expect(parts[2].body == BrowserBodies.crashReport)
        // An empty file input: an empty filename and an empty body.
        #expect(parts[3].head.filename == "")
        #expect(parts[3].body.isEmpty)
    }

    @Test func aKSCrashUploadParses() throws {
        let reports = Array("[{\"report\":{\"id\":\"EE5E3AE9\"},\"crash\":{\"threads\":[]}}]".utf8)
        let boundary = "0f8fad5bd9cb469fa16570867728950e"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"reports\"; filename=\"reports.json\"\r\nContent-Type: application/json\r\n\r\n".utf8)
        body += reports
        body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"user \\\"quoted\\\"\"\r\n\r\nx\r\n--\(boundary)--\r\n".utf8)
        let parts = try parseAll(body, boundary: boundary)
        #expect(parts.map(\.head.name) == ["reports", "user \"quoted\""])
        #expect(parts[0].body == reports)
        #expect(parts[0].head.contentType == "application/json")
    }

    static var toolsAvailable: Bool {
        ["/usr/bin/curl", "/usr/local/bin/curl"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: RealWorldBodyTests.toolsAvailable))
    func aBodyCapturedFromRealCurlParsesToTheFilesGiven() async throws {
        let directory = try TemporaryDirectory("multipart-curl")
        let binary = patternBytes(70_000, seed: 11)
        let report = Array("Incident Identifier: 6156B3D3\r\nCrashed Thread: 0\n\n--not a boundary\r\n".utf8)
        try directory.write("app.ipa", binary)
        try directory.write("App.crash", report)
        try directory.write("notes.txt", Array("Release notes: fixes ünïcode".utf8))
        let request = try await CapturedRequest.curl([
            "-F", "description=It crashed", "-F", "ipa=@\(directory.child("app.ipa"));type=application/octet-stream",
            "-F", "report=@\(directory.child("App.crash"))", "-F", "notes=<\(directory.child("notes.txt"))",
            "-F", "report=@\(directory.child("App.crash"));filename=second.crash",
        ])
        let boundary = try MultipartBoundary(contentType: try #require(request.header("Content-Type")))
        #expect(boundary.value.hasPrefix("----"))
        let parts = try parseAll(request.body, boundary: boundary.value)
        #expect(parts.map(\.head.name) == ["description", "ipa", "report", "notes", "report"])
        #expect(parts[0].body == Array("It crashed".utf8))
        #expect(parts[1].body == binary)
        #expect(parts[1].head.filename == "app.ipa")
        #expect(parts[1].head.contentType == "application/octet-stream")
        #expect(parts[2].body == report)
        #expect(parts[2].head.filename == "App.crash")
        #expect(parts[3].body == Array("Release notes: fixes ünïcode".utf8))
        #expect(parts[3].head.filename == nil)
        #expect(parts[4].head.filename == "second.crash")
        // And however the captured body is cut.
        var random = SeededRandom(seed: 5)
        for _ in 0..<10 {
            let cuts = (0..<8).map { _ in Int.random(in: 0...request.body.count, using: &random) }
            #expect(parse(request.body, boundary: boundary.value, cuts: cuts).parts == parts)
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")))
    func aBodyGeneratedByPythonsEmailPackageParses() async throws {
        // Python's email package writes a quoted boundary full of "=" and encodes a non-ASCII
        // file name as an RFC 2231 filename*.
        let script = """
            import email.policy, sys
            from email.mime.multipart import MIMEMultipart
            from email.mime.application import MIMEApplication
            from email.encoders import encode_noop
            form = MIMEMultipart("form-data")
            for name, filename, data in [("description", None, b"Crash on launch"), ("report", "r\\u00e9sum\\u00e9.crash", b"Thread 0 Crashed:"), ("report", "plain.crash", b"x")]:
                part = MIMEApplication(data, _encoder=encode_noop)
                if filename:
                    part.add_header("Content-Disposition", "form-data", name=name, filename=filename)
                else:
                    part.add_header("Content-Disposition", "form-data", name=name)
                form.attach(part)
            sys.stdout.buffer.write(form.as_bytes(policy=email.policy.HTTP))
            """
        let result = try await runTool("python3", ["-c", script])
        #expect(result.status == 0, "\(result.error)")
        let message = [UInt8](result.output)
        let split = try #require(message.indices.first { message[$0...].starts(with: [0x0D, 0x0A, 0x0D, 0x0A]) })
        let headers = String(decoding: message[..<split], as: UTF8.self)
        let contentType = try #require(headers.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-type:") })
        let boundary = try MultipartBoundary(contentType: String(contentType.dropFirst("content-type:".count)))
        #expect(boundary.value.hasPrefix("==============="))
        let parts = try parseAll(Array(message[(split + 4)...]), boundary: boundary.value)
        #expect(texts(parts) == ["description=Crash on launch", "report=Thread 0 Crashed:", "report=x"])
        #expect(parts.map(\.head.filename) == [nil, "résumé.crash", "plain.crash"])
        #expect(parts[1].head.field("Content-Disposition")?.contains("filename*=utf-8''r%C3%A9sum%C3%A9.crash") == true)
        #expect(parts[0].head.contentType == "application/octet-stream")
    }
}

/// A request captured from a real client on a loopback socket.
struct CapturedRequest {
    var head: String
    var body: [UInt8]

    func header(_ name: String) -> String? {
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            let pieces = line.split(separator: ":", maxSplits: 1)
            if pieces.count == 2, pieces[0].lowercased() == name.lowercased() { return pieces[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// A one-shot listener in Python records what `curl ARGUMENTS http://127.0.0.1:PORT/upload` sends.
    static func curl(_ arguments: [String]) async throws -> CapturedRequest {
        let listener = """
            import socket, sys
            server = socket.socket()
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            print(server.getsockname()[1], flush=True)
            server.settimeout(60)
            connection, _ = server.accept()
            data = b""
            while b"\\r\\n\\r\\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                data += chunk
            head, _, body = data.partition(b"\\r\\n\\r\\n")
            length = 0
            for line in head.split(b"\\r\\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
                if name.strip().lower() == b"expect":
                    connection.sendall(b"HTTP/1.1 100 Continue\\r\\n\\r\\n")
            while len(body) < length:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                body += chunk
            connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n")
            connection.close()
            sys.stdout.buffer.write(head + b"\\r\\n\\r\\n" + body)
            """
        return try await blocking {
            let output = Pipe()
            let python = try ChildProcess("python3", ["-c", listener], output: .pipe(output))
            var captured = Data()
            while !captured.contains(0x0A) {
                let more = output.fileHandleForReading.availableData
                if more.isEmpty { break }
                captured += more
            }
            let newline = captured.firstIndex(of: 0x0A) ?? captured.endIndex
            let port = String(decoding: captured[..<newline], as: UTF8.self)
            _ = try runToolNow("curl", ["-sS", "-o", "/dev/null"] + arguments + ["http://127.0.0.1:\(port)/upload"])
            captured += output.fileHandleForReading.readDataToEndOfFile()
            python.waitUntilExit()
            let bytes = [UInt8](captured.dropFirst(newline + 1 - captured.startIndex))
            guard let split = bytes.indices.first(where: { bytes[$0...].starts(with: [0x0D, 0x0A, 0x0D, 0x0A]) }) else {
                return CapturedRequest(head: "", body: [])
            }
            return CapturedRequest(head: String(decoding: bytes[..<split], as: UTF8.self), body: Array(bytes[(split + 4)...]))
        }
    }
}

/// Bodies written the way HockeySDK-iOS writes them (BITHockeyAppClient
/// `dataWithPostValue:forKey:contentType:boundary:filename:` for each part, then
/// BITCrashManager `postBodyWithXML` adds `\r\n--boundary--\r\n`).
enum HockeySDKBodies {
    /// kBITHockeyAppClientBoundary.
    static let boundary = "----FOO"

    struct Body {
        var bytes: [UInt8]
        var values: [[UInt8]]
    }

    static func part(_ name: String, _ value: [UInt8], contentType: String = "text", filename: String? = nil) -> [UInt8] {
        var text = "--\(boundary)\r\n"
        if let filename {
            text += "Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        } else {
            text += "Content-Disposition: form-data; name=\"\(name)\"\r\nContent-Type: \(contentType)\r\n\r\n"
        }
        return Array(text.utf8) + value + [0x0D, 0x0A]
    }

    static let crashXML = "<crashes><crash><applicationname><![CDATA[Beta]]></applicationname><uuids><uuid type=\"app\" arch=\"arm64\">8D9E0B7A</uuid></uuids><log><![CDATA[Incident Identifier: 1\nThread 0 Crashed:\n]]></log><description><![CDATA[]]></description></crash></crashes>"

    static func crashUpload() -> Body {
        let values: [[UInt8]] = [Array("HockeySDK".utf8), Array("5.1.4".utf8), Array("no".utf8), Array(crashXML.utf8), [1, 2] + Array("binary attachment".utf8)]
        var bytes = part("sdk", values[0]) + part("sdk_version", values[1]) + part("feedbackEnabled", values[2])
        bytes += part("xml", values[3], contentType: "text/xml", filename: "crash.xml")
        bytes += part("attachment0", values[4], contentType: "application/octet-stream", filename: "attachment.bin")
        bytes += Array("\r\n--\(boundary)--\r\n".utf8)
        return Body(bytes: bytes, values: values)
    }

    /// The older field set: xml, log, description, userID, contact, attachment0.
    static func legacyCrashUpload(values: [String: String]) -> Body {
        let names = ["xml", "log", "description", "userID", "contact", "attachment0"]
        var bytes: [UInt8] = []
        for name in names {
            let filename: String? = name == "xml" ? "crash.xml" : name == "attachment0" ? "log.txt" : nil
            bytes += part(name, Array((values[name] ?? "").utf8), contentType: name == "xml" ? "text/xml" : "text", filename: filename)
        }
        bytes += Array("\r\n--\(boundary)--\r\n".utf8)
        return Body(bytes: bytes, values: names.map { Array((values[$0] ?? "").utf8) })
    }
}

/// A form post as Chrome sends it for a crash-report page with two files, a text field and an
/// empty file input.
enum BrowserBodies {
    static let chromeBoundary = "----WebKitFormBoundaryePkpFF7tjBAqx29L"
    static let ipsReport = Array("{\"app_name\":\"Beta\",\"timestamp\":\"2024-05-01 10:11:12.00 +0200\",\"bug_type\":\"309\"}\n{\n  \"exception\" : {\"type\":\"EXC_CRASH\"}\n}\n".utf8)
    static let crashReport = Array("Incident Identifier: 6156B3D3-1E9F-4B2A-9E3B-7B8C2B9C5A11\r\n\r\n------WebKitFormBoundaryePkpFF7tjBAqx29 (one character short)\r\n".utf8) + [0, 0xFF, 0x0D]

    static var chromeForm: [UInt8] {
        let b = chromeBoundary
        var body = Array("--\(b)\r\nContent-Disposition: form-data; name=\"description\"\r\n\r\nThe app crashed when I tapped Save.\r\nTwice.\r\n".utf8)
        body += Array("--\(b)\r\nContent-Disposition: form-data; name=\"report\"; filename=\"MyApp-2024-05-01-101112.ips\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += ipsReport
        body += Array("\r\n--\(b)\r\nContent-Disposition: form-data; name=\"report\"; filename=\"naïve %22report%22.crash\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += crashReport
        body += Array("\r\n--\(b)\r\nContent-Disposition: form-data; name=\"screenshot\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--\(b)--\r\n".utf8)
        return body
    }
}
