extension Roster {
    /// SQL for one column of `deviceSelect` (devices aliased `d`): 1 when the device is pending,
    /// that is active, registered by enrolment, and in no ad hoc profile betactl has seen, neither
    /// an imported one nor one embedded in a released build. Such a device is registered here but
    /// not yet with Apple: it is what `export-devices --pending` writes for upload.
    static let pendingColumn = """
        (d.removed_at IS NULL AND EXISTS (SELECT 1 FROM enrolled_devices e WHERE e.udid = d.udid)
         AND NOT EXISTS (SELECT 1 FROM profile_devices pd JOIN profiles p ON p.uuid = pd.profile_uuid
                         WHERE pd.udid = d.udid AND p.type = 'ad-hoc')
         AND NOT EXISTS (SELECT 1 FROM release_devices rd JOIN releases r ON r.id = rd.release_id
                         WHERE rd.udid = d.udid AND r.profile_type = 'ad-hoc'))
        """

    /// The pending devices (see `Device.isPending`), by tester and name.
    public func pendingDevices() throws -> [Device] {
        try devices(includeRemoved: false).filter(\.isPending)
    }
}
