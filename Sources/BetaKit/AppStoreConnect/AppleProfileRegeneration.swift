/// What `apple profile` did: one ad hoc profile per bundle id of the app.
public struct AppleProfileRegeneration: Sendable {
    /// One bundle id's new profile.
    public struct Made: Sendable {
        /// The bundle id.
        public var bundleID: String
        /// The new profile's name at Apple.
        public var name: String
        /// Its UUID.
        public var uuid: String
        /// Devices it provisions.
        public var devices: Int
        /// The name of the profile betactl made before and deleted, if there was one.
        public var replaced: String?
    }

    /// The app's bundle id as asked.
    public var bundleID: String
    /// Every profile made, the app's first.
    public var profiles: [Made]
    /// The distribution certificate's serial number.
    public var certificateSerial: String
    /// Calls made to Apple.
    public var calls: Int
}
