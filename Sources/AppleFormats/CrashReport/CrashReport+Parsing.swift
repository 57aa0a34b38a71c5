#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CrashReport {
    // Reports are at most a few megabytes; anything far larger is not a crash report.
    static let maxSize = 64 << 20

    /// Reads a crash report in any supported format: a text `.crash` (with or without a JSON
    /// header line), a JSON `.ips` (bug_type 309), or an iOS 14 `.ips` whose body is text.
    public init(bytes: [UInt8]) throws(CrashReportError) {
        try Self.checkSize(bytes.count)
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(CrashReportError) -> CrashReport in try Self.parse(buffer) }
    }

    /// Reads a crash report in any supported format (see `init(bytes:)`).
    public init(data: Data) throws(CrashReportError) {
        try Self.checkSize(data.count)  // before copying it
        try self.init(bytes: [UInt8](data))
    }

    static func checkSize(_ count: Int) throws(CrashReportError) {
        guard count <= Self.maxSize else {
            throw CrashReportError.unrecognized("the file is \(count) bytes, far larger than any crash report")
        }
    }

    /// Reads a crash report from its text.
    public init(text: String) throws(CrashReportError) {
        try self.init(bytes: Array(text.utf8))
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(CrashReportError) -> CrashReport {
        var body = TextSlice(bytes, 0, bytes.count)
        if body.hasPrefix("\u{FEFF}") { body = body.dropping("\u{FEFF}") }
        body = body.droppingLeadingWhitespace
        guard body.first == UInt8(ascii: "{") else {
            return try parseText(UnsafeBufferPointer(rebasing: bytes[body.start ..< body.end]), format: .text)
        }
        guard let headerEnd = endOfJSONObject(body) else {
            throw CrashReportError.malformed("the JSON at the start of the file never closes")
        }
        let rest = body.suffix(from: headerEnd).droppingLeadingWhitespace
        if rest.isEmpty {
            // A body without its header line.
            let read: IPSBody?
            do { read = try IPSBody.read(bytes, in: body.start ..< headerEnd) } catch {
                // Nesting past the limit is named; other damage reads as not a report.
                if error.nesting != nil { throw CrashReportError.malformed("the .ips JSON cannot be read (\(error))") }
                read = nil
            }
            guard let document = read, !document.threads.isEmpty || !document.usedImages.isEmpty else {
                throw CrashReportError.unrecognized("the JSON has no threads or usedImages")
            }
            return CrashReport(ips: document, header: nil)
        }
        let header = IPSHeader.read(bytes, in: body.start ..< headerEnd)
        if rest.first == UInt8(ascii: "{") {
            let read: IPSBody?
            do { read = try IPSBody.read(bytes, in: rest.start ..< rest.end) } catch {
                throw CrashReportError.malformed("the .ips body is not valid JSON (\(error))")
            }
            guard let document = read else {
                throw CrashReportError.malformed("the .ips body is not valid JSON (it is not an object)")
            }
            return CrashReport(ips: document, header: header)
        }
        var report = try parseText(UnsafeBufferPointer(rebasing: bytes[rest.start ..< rest.end]), format: .ipsText)
        report.apply(header: header)
        return report
    }

    /// Where the JSON object starting at `text.start` ends (one past its closing brace).
    static func endOfJSONObject(_ text: TextSlice) -> Int? {
        var depth = 0
        var inString = false, escaped = false
        for index in text.start ..< text.end {
            let byte = text.base[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
        }
        return nil
    }

    static func describe(_ error: any Error) -> String {
        if case let DecodingError.dataCorrupted(context) = error { return context.debugDescription }
        return "\(error)"
    }

    /// Fills fields the text body lacks from the `.ips` header line.
    mutating func apply(header: IPSHeader?) {
        guard let header else { return }
        bugType = header.bugType
        incidentIdentifier = incidentIdentifier ?? header.incidentID
        processName = processName ?? header.appName ?? header.name
        bundleIdentifier = bundleIdentifier ?? header.bundleID
        version = version ?? header.appVersion
        build = build ?? header.buildVersion
        osVersion = osVersion ?? header.osVersion
        date = date ?? header.timestamp
    }

    init(ips document: IPSBody, header: IPSHeader?) {
        self.init(format: .ips)
        incidentIdentifier = document.incident
        processName = document.procName
        processID = document.pid
        processPath = document.procPath
        bundleIdentifier = document.bundleInfo?.identifier
        version = document.bundleInfo?.shortVersion
        build = document.bundleInfo?.version
        if let os = document.osVersion, let train = os.train {
            osVersion = os.build.map { "\(train) (\($0))" } ?? train
        }
        hardwareModel = document.modelCode
        if let cpu = document.cpuType { codeType = cpu + (document.translated == true ? " (Translated)" : " (Native)") }
        date = document.captureTime
        if let e = document.exception {
            exception = Exception(type: e.type, signal: e.signal, codes: e.codes, subtype: e.subtype, note: e.message)
        }
        if let t = document.termination {
            terminationReason = [t.namespace, t.code.map { String($0) }, t.indicator].compactMap { $0 }.joined(separator: " ")
        }
        if let asi = document.asi, !asi.isEmpty {
            applicationSpecificInformation = asi.keys.sorted().flatMap { asi[$0] ?? [] }.joined(separator: "\n")
        }
        crashedThread = document.faultingThread
        images = document.usedImages.map { used in
            let path = used.path
            let name = used.name ?? path.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "???"
            var image = Image(name: name, path: path, uuid: used.uuid.flatMap { TextParser.uuid($0) }, architecture: used.arch,
                              loadAddress: used.base ?? 0, endAddress: nil)
            if let base = used.base, let size = used.size, size > 0 { image.endAddress = base &+ (size - 1) }
            image.bundleIdentifier = used.bundleIdentifier
            // An all-zero UUID marks an image the device could not identify.
            if image.uuid == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) { image.uuid = nil }
            return image
        }
        threads = document.threads.enumerated().map { number, thread in
            Thread(number: number, name: thread.name, queue: thread.queue,
                   crashed: thread.triggered ?? (number == document.faultingThread), frames: frames(thread.frames))
        }
        lastExceptionBacktrace = document.lastExceptionBacktrace.map { frames($0) }
        apply(header: header)
        if bugType == nil { bugType = document.bugType }
    }

    /// The report's frames for `list`. Frames are made in one step each, fields read where they
    /// are: a report has thousands, and each copy of a frame or of an `IPSBody.Frame` retains
    /// and releases its strings.
    private func frames(_ list: [IPSBody.Frame]) -> [Frame] {
        var result: [Frame] = []
        result.reserveCapacity(list.count)
        list.withUnsafeBufferPointer { list in
            for number in list.indices {
                let offset = list[number].imageOffset ?? 0
                let address: UInt64
                let imageIndex: Int?
                let imageName: String?
                if let index = list[number].imageIndex, images.indices.contains(index) {
                    let (sum, overflow) = images[index].loadAddress.addingReportingOverflow(offset)
                    address = overflow ? offset : sum
                    imageIndex = index
                    imageName = images[index].name
                } else {
                    address = offset
                    imageIndex = nil
                    imageName = nil
                }
                let frame = Frame(number: number, address: address, imageIndex: imageIndex, imageName: imageName,
                                  symbol: list[number].symbol, symbolOffset: list[number].symbolLocation,
                                  sourceFile: list[number].sourceFile, sourceLine: list[number].sourceLine, textLine: nil)
                result.append(consume frame)
            }
        }
        return result
    }
}
