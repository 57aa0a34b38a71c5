import AppleFormats

/// The `device-list` kind.
public struct DeviceListSummary: Encodable, Sendable, Equatable {
    /// `tsv` or `deviceids`.
    public var format: String
    /// How many devices it lists.
    public var count: Int
    /// Devices per family. Apple's files only say `ios` or `mac`: an `ios` device's family comes
    /// from its name ("Ann's iPad"), else it counts as an iPhone, as `import-devices` assumes.
    public var families: [String: Int]
    /// How many `ios` devices were counted as iPhones only because their name names no family.
    public var assumedIPhones: Int

    /// Summarises `entries` read from a file in `format`.
    public init(_ entries: [DeviceListEntry], format: DeviceListFormat) {
        self.format = format.rawValue
        count = entries.count
        var families: [String: Int] = [:]
        var assumed = 0
        for entry in entries {
            let family: DeviceFamily
            if entry.platform == .mac || entry.identifier.form == .uuid {
                family = .mac
            } else if let named = DeviceFamily(inferringFromName: entry.name) {
                family = named
            } else {
                family = .iphone
                assumed += 1
            }
            families[family.rawValue, default: 0] += 1
        }
        self.families = families
        assumedIPhones = assumed
    }
}

/// The `plist` kind.
public struct PlistSummary: Encodable, Sendable, Equatable {
    /// `xml` or `binary`.
    public var format: String
    /// The kind of the top-level value ("a dictionary", …).
    public var root: String
    /// A dictionary's keys, sorted.
    public var keys: [String]?
    /// The whole property list as XML.
    public var xml: String

    /// Summarises `value`, read from a file in `format`.
    public init(_ value: PlistValue, format: String) throws(PlistError) {
        self.format = format
        root = value.kindDescription
        keys = value.dictionary.map { $0.keys.sorted() }
        xml = String(decoding: try value.xmlBytes(), as: UTF8.self)
    }
}

/// The `png` kind.
public struct PNGSummary: Encodable, Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Whether it is Apple's CgBI ("crushed") form, which browsers cannot show.
    public var cgbi: Bool
}
