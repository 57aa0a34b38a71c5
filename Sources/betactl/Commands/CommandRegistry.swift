/// Every betactl command, in the order `--help` lists them within their groups.
enum CommandRegistry {
    static var all: [any BetactlCommand.Type] { [
        InitCommand.self, DemoCommand.self,
        AddTesterCommand.self, TestersCommand.self, ShowTesterCommand.self, RemoveTesterCommand.self,
        AddDeviceCommand.self, RemoveDeviceCommand.self, DevicesCommand.self,
        RequestsCommand.self, ApproveDeviceCommand.self, RejectDeviceCommand.self, ApprovalRuleCommand.self,
        ExportDevicesCommand.self, ImportDevicesCommand.self,
        ImportProfileCommand.self, ProfilesCommand.self, AppleCommand.self, JobsCommand.self, CheckProfileCommand.self, EntitlementsCommand.self, CheckEntitlementsCommand.self, CheckSignatureCommand.self,
        ReleaseCommand.self, ResignCommand.self, CodeIdentityCommand.self, AddSymbolsCommand.self, SymbolsCommand.self, ReleasesCommand.self, ShowReleaseCommand.self, RevokeCommand.self,
        SymbolicateCommand.self, InspectCommand.self,
        CrashKeyCommand.self, AddCrashCommand.self, CrashesCommand.self, CrashGroupsCommand.self, ShowCrashCommand.self,
        ServeCommand.self, SigningIdentityCommand.self, TokenCommand.self, WebhookCommand.self,
        BackupCommand.self, VerifyCommand.self, RestoreCommand.self,
    ] }

    static var names: [String] { all.map { $0.spec.name } }

    static func command(named name: String) -> (any BetactlCommand.Type)? {
        all.first { $0.spec.name == name }
    }
}
