import Foundation
import Testing

/// A request described with the curl options web tests use, turned into method, target, header
/// fields and body for an in-process server, so one test reads the same against either server.
///
/// Understood: `-X`, `-H`, `-A`, `-e`, `-r`, `-I`, `-d`, `--data-binary`, `--data-urlencode`, `-F`,
/// `--form-string`, `-b` and `-c` (a Netscape cookie file, or `-b name=value`), `--interface` (the
/// client's address), and the options that
/// change nothing here (`-s`, `-S`, `-k`, `--max-time`, `--fail-with-body`). Anything else is a
/// mistake in the test and throws, naming the option.
struct CurlArguments {
    var method = "GET"
    var target: String
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// The cookie file `-c` names: answers' cookies are written to it.
    var cookieJar: String?
    /// The client's address (`--interface`, as curl binds the connection to it).
    var peerAddress = "127.0.0.1"

    init(url: String, base: String, arguments: [String]) throws {
        guard url.hasPrefix(base) else { throw CurlArgumentError(message: "\(url) is not on the in-process server \(base)") }
        let rest = String(url.dropFirst(base.count))
        target = rest.isEmpty ? "/" : rest
        var explicitMethod: String?
        var data: [[UInt8]] = []
        var form: [MultipartField] = []
        var cookies: [String] = []
        var index = 0
        func value() throws -> String {
            index += 1
            guard index < arguments.count else { throw CurlArgumentError(message: "\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let option = arguments[index]
            switch option {
            case "-X", "--request": explicitMethod = try value()
            case "-H", "--header":
                let field = try value()
                guard let colon = field.firstIndex(of: ":") else { throw CurlArgumentError(message: "-H \(field) has no colon") }
                headers.append((String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            case "-A", "--user-agent": headers.append(("User-Agent", try value()))
            case "-e", "--referer": headers.append(("Referer", try value()))
            case "-r", "--range": headers.append(("Range", "bytes=" + (try value())))
            case "-I", "--head": explicitMethod = "HEAD"
            case "-d", "--data": data.append(try Self.data(try value(), stripNewlines: true))
            case "--data-binary": data.append(try Self.data(try value(), stripNewlines: false))
            case "--data-urlencode": data.append(try Self.urlencoded(try value()))
            case "-F", "--form": form.append(try MultipartField(parsing: try value(), literal: false))
            case "--form-string": form.append(try MultipartField(parsing: try value(), literal: true))
            case "-b", "--cookie":
                let source = try value()
                if source.contains("=") { cookies.append(source) } else { cookies += CookieJar.read(source).map { "\($0.0)=\($0.1)" } }
            case "-c", "--cookie-jar": cookieJar = try value()
            case "--interface": peerAddress = try value()
            case "--max-time": _ = try value()
            case "-s", "-S", "-k", "--silent", "--show-error", "--insecure", "--fail-with-body": break
            default: throw CurlArgumentError(message: "the in-process server does not understand curl's \(option)")
            }
            index += 1
        }
        if !cookies.isEmpty { headers.append(("Cookie", cookies.joined(separator: "; "))) }
        if !form.isEmpty {
            let boundary = "------------------------" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(22)
            body = MultipartField.encode(form, boundary: boundary)
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "multipart/form-data; boundary=\(boundary)"))
            }
            method = "POST"
        } else if !data.isEmpty {
            body = Array(data.joined(separator: [UInt8(ascii: "&")]))
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            }
            method = "POST"
        }
        if let explicitMethod { method = explicitMethod }
    }

    static func data(_ argument: String, stripNewlines: Bool) throws -> [UInt8] {
        guard argument.hasPrefix("@") else { return Array(argument.utf8) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: String(argument.dropFirst()))))
        return stripNewlines ? bytes.filter { $0 != 0x0A && $0 != 0x0D } : bytes
    }

    static func urlencoded(_ argument: String) throws -> [UInt8] {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        if let equals = argument.firstIndex(of: "=") {
            let name = argument[..<equals]
            let encoded = encode(String(argument[argument.index(after: equals)...]))
            return Array((name.isEmpty ? encoded : "\(name)=\(encoded)").utf8)
        }
        return Array(encode(argument).utf8)
    }
}

/// A test used a curl option the in-process server cannot honour.
struct CurlArgumentError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// One `-F` or `--form-string` field.
struct MultipartField {
    var name: String
    var value: [UInt8]
    var filename: String?
    var contentType: String?

    init(parsing argument: String, literal: Bool) throws {
        guard let equals = argument.firstIndex(of: "=") else { throw CurlArgumentError(message: "-F \(argument) has no '='") }
        name = String(argument[..<equals])
        var rest = String(argument[argument.index(after: equals)...])
        if literal {
            value = Array(rest.utf8)
            return
        }
        var parameters: [String: String] = [:]
        if rest.hasPrefix("@") || rest.hasPrefix("<") {
            let pieces = rest.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            rest = pieces[0]
            for piece in pieces.dropFirst() {
                let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2 { parameters[pair[0]] = pair[1] }
            }
        } else if let semicolon = rest.firstIndex(of: ";"), rest[semicolon...].hasPrefix(";type=") {
            contentType = String(rest[rest.index(semicolon, offsetBy: 6)...])
            rest = String(rest[..<semicolon])
        }
        if rest.hasPrefix("@") {
            let path = String(rest.dropFirst())
            value = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            filename = parameters["filename"] ?? (path as NSString).lastPathComponent
            contentType = parameters["type"] ?? Self.guessedType(path)
        } else if rest.hasPrefix("<") {
            value = try [UInt8](Data(contentsOf: URL(fileURLWithPath: String(rest.dropFirst()))))
            contentType = parameters["type"]
        } else {
            value = Array(rest.utf8)
        }
    }

    /// curl's guess from the file name's extension.
    static func guessedType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "gif": "image/gif"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "txt": "text/plain"
        case "htm", "html": "text/html"
        case "pdf": "application/pdf"
        case "xml": "application/xml"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }

    static func encode(_ fields: [MultipartField], boundary: String) -> [UInt8] {
        var body: [UInt8] = []
        for field in fields {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\""
            if let filename = field.filename { head += "; filename=\"\(filename)\"" }
            head += "\r\n"
            if let type = field.contentType { head += "Content-Type: \(type)\r\n" }
            head += "\r\n"
            body += Array(head.utf8) + field.value + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }
}

/// curl's Netscape cookie file, as far as tests use it.
enum CookieJar {
    /// The cookies in `path` as name and value.
    static func read(_ path: String) -> [(String, String)] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 7, !line.hasPrefix("# ") else { return nil }
            return (String(fields[5]), String(fields[6]))
        }
    }

    /// Applies the `Set-Cookie` fields of an answer to the file at `path`.
    static func update(_ path: String, setCookies: [String]) {
        var cookies = read(path)
        for header in setCookies {
            let attributes = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            let expired = attributes.dropFirst().contains { $0.lowercased() == "max-age=0" || $0.lowercased().hasPrefix("max-age=-") }
            cookies.removeAll { $0.0 == name }
            if !expired && !value.isEmpty { cookies.append((name, value)) }
        }
        let lines = cookies.map { "127.0.0.1\tFALSE\t/\tFALSE\t0\t\($0.0)\t\($0.1)" }
        try? ("# Netscape HTTP Cookie File\n" + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
