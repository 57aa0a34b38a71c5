/// The attributes a device sends back to a Profile Service URL during enrolment: a CMS
/// SignedData (DER, or BER with indefinite lengths) around an XML plist with `UDID`, `PRODUCT`,
/// `VERSION`, `SERIAL`, `DEVICE_NAME`, `IMEI`, `CHALLENGE` and a few more.
///
/// Strict where it matters: the UDID must be one of Apple's forms, every known attribute must be a
/// string of the expected shape and length, and the whole reply is limited in size. Lenient where
/// it does not: an empty informational attribute (`IMEI`, `MEID`, `SERIAL`, `DEVICE_NAME`) is
/// read as absent, as devices without a modem send empty `IMEI` and `MEID`. The signer is the
/// device's own certificate, which chains to Apple's long-expired iPhone Device CA: it is reported
/// here, never judged; the signature is verified by the caller (BetaKit's `DeviceReplyVerifier`).
public struct DeviceEnrollmentReply: Sendable, Equatable {
    /// The device's UDID, normalised.
    public var udid: DeviceIdentifier
    /// The model code (`PRODUCT`), such as `iPhone15,2`.
    public var product: String?
    /// The OS build (`VERSION`), such as `21A329`.
    public var version: String?
    /// The serial number (`SERIAL`).
    public var serial: String?
    /// The name the user gave the device (`DEVICE_NAME`).
    public var deviceName: String?
    /// The IMEI as sent, spaces included; absent on Wi-Fi-only devices.
    public var imei: String?
    /// The MEID, on devices that have one.
    public var meid: String?
    /// The challenge the Profile Service payload carried, echoed back.
    public var challenge: String?
    /// The certificate that signed the reply (the device's), when the envelope names it.
    public var signer: Certificate?
    /// Every certificate carried in the envelope.
    public var certificates: [Certificate]
    /// Whether the envelope used BER indefinite lengths.
    public var usesIndefiniteLengths: Bool

    /// Replies are a few kilobytes (a plist and two or three certificates); this bounds hostile posts.
    public static let maxSize = 256 << 10

    /// The attribute keys read, with the longest value each may have.
    static let textLimits: [String: Int] = [
        "PRODUCT": 32, "VERSION": 32, "SERIAL": 64, "DEVICE_NAME": 256, "IMEI": 32, "MEID": 32, "CHALLENGE": 1024,
    ]

    /// Informational attributes: empty means absent.
    static let informational: Set<String> = ["IMEI", "MEID", "SERIAL", "DEVICE_NAME"]

    /// Reads a reply as the device posted it.
    public init(bytes: [UInt8]) throws(DeviceEnrollmentReplyError) {
        guard bytes.count <= Self.maxSize else { throw DeviceEnrollmentReplyError.tooLarge(size: bytes.count, limit: Self.maxSize) }
        let signed: CMSSignedPlist
        do { signed = try CMSSignedPlist(bytes: bytes) } catch { throw DeviceEnrollmentReplyError.envelope(error) }
        try self.init(attributes: signed.plist)
        signer = signed.envelope.signer
        certificates = signed.envelope.certificates
        usesIndefiniteLengths = signed.envelope.usesIndefiniteLengths
    }

    /// Reads the attribute dictionary alone (the content of the envelope).
    public init(attributes plist: PlistValue) throws(DeviceEnrollmentReplyError) {
        guard let entries = plist.dictionary else { throw DeviceEnrollmentReplyError.notADictionary(found: plist.kindDescription) }
        guard let udidValue = entries["UDID"] else { throw DeviceEnrollmentReplyError.missingUDID(keys: entries.keys.sorted()) }
        guard let udidText = udidValue.string else {
            throw DeviceEnrollmentReplyError.wrongType(key: "UDID", found: udidValue.kindDescription)
        }
        do { udid = try DeviceIdentifier(udidText) } catch { throw DeviceEnrollmentReplyError.invalidUDID(error) }
        var texts: [String: String] = [:]
        for (key, limit) in Self.textLimits {
            guard let value = entries[key] else { continue }
            guard let text = value.string else { throw DeviceEnrollmentReplyError.wrongType(key: key, found: value.kindDescription) }
            if text.isEmpty, Self.informational.contains(key) { continue }
            try Self.check(text, key: key, limit: limit)
            texts[key] = text
        }
        product = texts["PRODUCT"]
        version = texts["VERSION"]
        serial = texts["SERIAL"]
        deviceName = texts["DEVICE_NAME"]
        imei = texts["IMEI"]
        meid = texts["MEID"]
        challenge = texts["CHALLENGE"]
        signer = nil
        certificates = []
        usesIndefiniteLengths = false
    }

    /// Checks one attribute's length and shape; the shapes are what devices send, so anything else
    /// is a forged or corrupted reply.
    static func check(_ text: String, key: String, limit: Int) throws(DeviceEnrollmentReplyError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= limit else { throw DeviceEnrollmentReplyError.tooLong(key: key, length: bytes.count, limit: limit) }
        func invalid(_ expected: String) -> DeviceEnrollmentReplyError {
            .invalidValue(key: key, value: String(text.prefix(40)), expected: expected)
        }
        func isAlphanumeric(_ byte: UInt8) -> Bool { byte.isASCIIDigit || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) }
        switch key {
        case "PRODUCT":
            // Letters, then major,minor: iPhone15,2, iPad13,4, Watch6,1.
            let letters = bytes.prefix { !$0.isASCIIDigit }
            let parts = bytes.dropFirst(letters.count).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard !letters.isEmpty, letters.allSatisfy(isAlphanumeric), parts.count == 2,
                  parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
                throw invalid("a model code such as iPhone15,2")
            }
        case "VERSION", "SERIAL":
            guard !bytes.isEmpty, bytes.allSatisfy(isAlphanumeric) else { throw invalid("letters and digits only") }
        case "IMEI", "MEID":
            guard !bytes.isEmpty, bytes.allSatisfy({ isAlphanumeric($0) || $0 == 0x20 }) else {
                throw invalid("digits, letters and spaces only")
            }
        default:
            // Free text: any characters except control characters.
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw invalid("text without control characters")
            }
        }
    }
}
