/// One device line from Apple's "multiple devices" upload file or a `.deviceids` plist.
public struct DeviceListEntry: Sendable, Equatable {
    /// The line (tab-separated file) or entry (plist, 1-based) the device came from.
    public var location: Int
    /// The device's UDID.
    public var identifier: DeviceIdentifier
    /// The device name.
    public var name: String
    /// The platform column, when the file has one.
    public var platform: DevicePlatform?

    /// Creates an entry.
    public init(location: Int, identifier: DeviceIdentifier, name: String, platform: DevicePlatform?) {
        self.location = location
        self.identifier = identifier
        self.name = name
        self.platform = platform
    }
}

/// Which of Apple's device file formats a file is in.
public enum DeviceListFormat: String, Sendable, CaseIterable {
    /// Tab-separated text with a `Device ID<TAB>Device Name<TAB>Device Platform` header.
    case tsv
    /// A property list with a `Device UDIDs` array.
    case deviceids
}

/// One problem found in a device file, with where it is.
public struct DeviceListProblem: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line (text) or entry (plist); nil for whole-file problems.
    public var location: Int?
    /// Whether `location` counts lines or plist entries.
    public var isPlistEntry: Bool
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates a problem report.
    public init(location: Int?, isPlistEntry: Bool = false, message: String) {
        self.location = location
        self.isPlistEntry = isPlistEntry
        self.message = message
    }

    /// "line 4: …" or "entry 2: …".
    public var description: String {
        guard let location else { return message }
        return "\(isPlistEntry ? "entry" : "line") \(location): \(message)"
    }
}

/// A device file that cannot be read, with every problem found.
public struct DeviceListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// All problems, in file order.
    public var problems: [DeviceListProblem]

    /// Creates an error from its problems.
    public init(problems: [DeviceListProblem]) { self.problems = problems }

    /// One line per problem.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
