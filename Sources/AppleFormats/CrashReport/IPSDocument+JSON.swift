/// The `.ips` models read from a parsed `JSONTape` (through `JSONView`), with exactly the leniency of their `Codable`
/// conformances (see `Lenient`): a member of an unexpected type reads as absent, array elements
/// that are not objects are dropped, and the nested structs whose fields are not lenient
/// (`osVersion`, `exception`) read as absent when one of their fields has the wrong type. This is
/// the path reports take: JSONDecoder costs several times the parse on a report's thousands of
/// frames.
extension IPSHeader {
    /// Reads an `.ips` header line from `bytes[range]`; nil when it is not a JSON object.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> IPSHeader? {
        (try? JSONTape.parse(bytes, in: range))?.withRoot(bytes) { IPSHeader(json: $0) }
    }

    init?(json value: JSONView) {
        guard let object = value.object else { return nil }
        self.init(appName: object.present("app_name")?.string, appVersion: object.present("app_version")?.string,
                  buildVersion: object.present("build_version")?.string, bundleID: object.present("bundleID")?.string,
                  osVersion: object.present("os_version")?.string, incidentID: object.present("incident_id")?.string,
                  name: object.present("name")?.string, timestamp: object.present("timestamp")?.string,
                  bugType: object.present("bug_type")?.lenientString)
    }
}

extension IPSBody {
    /// Reads an `.ips` body from `bytes[range]`: nil when the JSON is not an object (JSONDecoder's
    /// type mismatch), a `JSONParseError` when it is not JSON.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil) throws(JSONParseError) -> IPSBody? {
        try JSONTape.parse(bytes, in: range).withRoot(bytes) { IPSBody(json: $0) }
    }

    /// `read` of a whole array.
    static func read(_ bytes: [UInt8]) throws(JSONParseError) -> IPSBody? {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> IPSBody? in try read(buffer) }
    }

    /// Nil when `value` is not an object (JSONDecoder's type mismatch).
    init?(json value: JSONView) {
        guard let object = value.object else { return nil }
        self.init(incident: object.present("incident")?.string, modelCode: object.present("modelCode")?.string,
                  cpuType: object.present("cpuType")?.string, procName: object.present("procName")?.string,
                  procPath: object.present("procPath")?.string, captureTime: object.present("captureTime")?.string,
                  pid: object.present("pid")?.int, translated: object.present("translated")?.bool,
                  osVersion: object.present("osVersion").flatMap(OSVersion.init(json:)),
                  bundleInfo: object.present("bundleInfo").flatMap(BundleInfo.init(json:)),
                  exception: object.present("exception").flatMap(Exception.init(json:)),
                  termination: object.present("termination").flatMap(Termination.init(json:)),
                  faultingThread: object.present("faultingThread")?.int,
                  threads: Self.elements(object.present("threads"), Thread.init(json:)),
                  usedImages: Self.elements(object.present("usedImages"), Image.init(json:)),
                  lastExceptionBacktrace: object.present("lastExceptionBacktrace").map { Self.elements($0, Frame.init(json:)) },
                  asi: object.present("asi").flatMap(Self.stringLists), bugType: object.present("bug_type")?.lenientString)
    }

    /// `LenientArray`: the elements that read, nothing when it is not an array.
    static func elements<Element>(_ value: JSONView?, _ read: (JSONView) -> Element?) -> [Element] {
        guard let array = value?.array else { return [] }
        var result: [Element] = []
        result.reserveCapacity(array.count)
        for element in array {
            if let read = read(element) { result.append(consume read) }
        }
        return result
    }

    /// `[String: [String]]`, or nil when any value is not a list of strings.
    static func stringLists(_ value: JSONView) -> [String: [String]]? {
        guard let object = value.object else { return nil }
        var result: [String: [String]]? = [:]
        object.forEachMember { key, value in
            guard let array = value.array else {
                result = nil
                return false
            }
            var strings: [String] = []
            for element in array {
                guard let string = element.string else {
                    result = nil
                    return false
                }
                strings.append(string)
            }
            // (A repeated name keeps its last list, as a dictionary built member by member does.)
            result?[key.string ?? ""] = strings
            return true
        }
        return result
    }

    /// A plain optional field (not lenient): absent or null is nil, another type fails the struct.
    static func strict(_ object: JSONObjectView, _ key: StaticString) -> String?? {
        guard let value = object.present(key) else { return .some(nil) }
        guard let string = value.string else { return nil }
        return .some(string)
    }
}

extension IPSBody.OSVersion {
    init?(json value: JSONView) {
        guard let object = value.object, let train = IPSBody.strict(object, "train"), let build = IPSBody.strict(object, "build") else { return nil }
        self.init(train: train, build: build)
    }
}

extension IPSBody.BundleInfo {
    init?(json value: JSONView) {
        guard let object = value.object else { return nil }
        self.init(shortVersion: object.present("CFBundleShortVersionString")?.lenientString, version: object.present("CFBundleVersion")?.lenientString,
                  identifier: object.present("CFBundleIdentifier")?.string)
    }
}

extension IPSBody.Exception {
    init?(json value: JSONView) {
        guard let object = value.object, let type = IPSBody.strict(object, "type"), let signal = IPSBody.strict(object, "signal"),
              let codes = IPSBody.strict(object, "codes"), let subtype = IPSBody.strict(object, "subtype"),
              let message = IPSBody.strict(object, "message") else { return nil }
        self.init(type: type, signal: signal, codes: codes, subtype: subtype, message: message)
    }
}

extension IPSBody.Termination {
    init?(json value: JSONView) {
        guard let object = value.object else { return nil }
        self.init(namespace: object.present("namespace")?.string, code: object.present("code")?.int64, indicator: object.present("indicator")?.string)
    }
}

extension IPSBody.Frame {
    /// One pass over the members (a report has thousands of frames), straight over the tape: each
    /// field takes the first member of its name, as `present` would, and is absent when that
    /// member is null or (being lenient) of another type.
    init?(json value: JSONView) {
        guard value.object != nil else { return nil }
        let nodes = value.nodes
        var imageOffset, imageIndex, symbol, symbolLocation, sourceFile, sourceLine: Int?
        var position = value.index + 1
        for _ in 0 ..< Int(nodes[value.index].first) {
            let key = JSONView(nodes: nodes, bytes: value.bytes, index: position)
            let member = position + 1
            // Plain names are told apart by length first (most comparisons end there); a name
            // written with escapes is compared in full, as its decoded string.
            let plain = nodes[position].flag
            let length = plain ? Int(nodes[position].last - nodes[position].first) : -1
            if imageOffset == nil, length == 11 || !plain, key.isString("imageOffset") { imageOffset = member }
            else if imageIndex == nil, length == 10 || !plain, key.isString("imageIndex") { imageIndex = member }
            else if symbol == nil, length == 6 || !plain, key.isString("symbol") { symbol = member }
            else if symbolLocation == nil, length == 14 || !plain, key.isString("symbolLocation") { symbolLocation = member }
            else if sourceFile == nil, length == 10 || !plain, key.isString("sourceFile") { sourceFile = member }
            else if sourceLine == nil, length == 10 || !plain, key.isString("sourceLine") { sourceLine = member }
            position = JSONView(nodes: nodes, bytes: value.bytes, index: member).next
        }
        func view(_ index: Int?) -> JSONView? {
            guard let index, nodes[index].kind != .null else { return nil }
            return JSONView(nodes: nodes, bytes: value.bytes, index: index)
        }
        self.init(imageOffset: view(imageOffset)?.uint64, imageIndex: view(imageIndex)?.int, symbol: view(symbol)?.string,
                  symbolLocation: view(symbolLocation)?.uint64, sourceFile: view(sourceFile)?.string, sourceLine: view(sourceLine)?.int)
    }
}

extension IPSBody.Thread {
    init?(json value: JSONView) {
        guard let object = value.object else { return nil }
        self.init(triggered: object.present("triggered")?.bool, name: object.present("name")?.string, queue: object.present("queue")?.string,
                  frames: IPSBody.elements(object.present("frames"), IPSBody.Frame.init(json:)))
    }
}

extension IPSBody.Image {
    init?(json value: JSONView) {
        guard let object = value.object else { return nil }
        self.init(arch: object.present("arch")?.string, uuid: object.present("uuid")?.string, path: object.present("path")?.string,
                  name: object.present("name")?.string, bundleIdentifier: object.present("CFBundleIdentifier")?.string,
                  base: object.present("base")?.uint64, size: object.present("size")?.uint64)
    }
}
