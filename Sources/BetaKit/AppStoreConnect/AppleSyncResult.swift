import AppleFormats

/// What `apple sync` did.
public struct AppleSyncResult: Sendable {
    /// Devices in Apple's list.
    public var appleDevices: Int
    /// Of those, disabled at Apple.
    public var appleDisabled: Int
    /// Devices registered at Apple that the roster did not know, now imported (without a tester).
    public var imported: [DeviceIdentifier]
    /// Active roster devices registered and enabled at Apple.
    public var registered: Int
    /// Active roster devices disabled at Apple.
    public var disabled: Int
    /// Active roster devices not registered at Apple.
    public var pending: Int
    /// Calls made to Apple.
    public var calls: Int
    /// Apple's slot count beside the roster's, per family.
    public var ledger: [AppleLedgerEntry]
}
