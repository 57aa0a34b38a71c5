#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A person who installs beta builds, with the secret link to their page.
public struct Tester: Sendable, Equatable, Identifiable {
    /// The tester's number, used on the command line.
    public var id: Int64
    /// The tester's name.
    public var name: String
    /// The tester's email, unique among current testers.
    public var email: String?
    /// The groups the tester belongs to, sorted; releases can target groups.
    public var groups: [String]
    /// The unguessable token in the tester's page URL.
    public var token: String
    /// When the tester was added.
    public var createdAt: Date
    /// When the tester was removed, if they were.
    public var removedAt: Date?

    /// The tester's page: `<public-url>/t/<token>`.
    public func pageURL(publicURL: String) -> String { "\(publicURL)/t/\(token)" }
}

/// What `add-tester` asks for.
public struct NewTester: Sendable, Equatable {
    /// The name; required.
    public var name: String
    /// An optional email.
    public var email: String?
    /// Groups to join.
    public var groups: [String]
    /// Devices to register for the tester in the same transaction.
    public var devices: [NewDevice]

    /// Creates a request.
    public init(name: String, email: String? = nil, groups: [String] = [], devices: [NewDevice] = []) {
        self.name = name
        self.email = email
        self.groups = groups
        self.devices = devices
    }
}
