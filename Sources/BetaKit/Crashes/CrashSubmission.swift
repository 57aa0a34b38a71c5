/// One report handed to the store: its raw bytes and who sent it how.
public struct CrashSubmission: Sendable {
    /// The raw report, exactly as received.
    public var bytes: [UInt8]
    /// How it arrived.
    public var source: CrashSource
    /// The file name sent, if any.
    public var fileName: String?
    /// The ingest key it came with (SDK uploads).
    public var keyID: Int64?
    /// The tester whose page (or `--tester`) it came through.
    public var testerID: Int64?
    /// The SDK's user id (HockeySDK `userID`), matched against testers' emails.
    public var userID: String?
    /// The SDK's contact field, matched against testers' emails too.
    public var contact: String?
    /// What the sender wrote about it.
    public var description: String?

    /// Creates a submission.
    public init(bytes: [UInt8], source: CrashSource, fileName: String? = nil, keyID: Int64? = nil, testerID: Int64? = nil,
                userID: String? = nil, contact: String? = nil, description: String? = nil) {
        self.bytes = bytes
        self.source = source
        self.fileName = fileName
        self.keyID = keyID
        self.testerID = testerID
        self.userID = userID
        self.contact = contact
        self.description = description
    }
}
