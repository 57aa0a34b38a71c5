extension TesterURLs {
    /// Route patterns of device enrolment, relative to the tester group.
    enum EnrollmentPattern {
        /// The enrolment page (GET) and where devices post their reply (POST).
        static let page = "/enroll"
        /// The Profile Service profile.
        static let profile = "/enroll.mobileconfig"
        /// The result of one reply.
        static let result = "/enroll/done/:reference"
    }

    /// The page that explains enrolment and offers the profile; devices post their replies here too.
    public var enroll: String { "\(page)/enroll" }
    /// The Profile Service profile that asks the device for its identifiers.
    public var enrollmentProfile: String { "\(page)/enroll.mobileconfig" }
    /// The page saying what a device's reply led to; `reference` is random, never the UDID.
    public func enrollmentResult(_ reference: String) -> String { "\(page)/enroll/done/\(reference)" }
}
