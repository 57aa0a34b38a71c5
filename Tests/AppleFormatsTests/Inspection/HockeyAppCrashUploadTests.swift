import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// HockeySDK's `<crashes><crash>` upload (Tests/Fixtures/inspect/hockeyapp) and hostile XML.
@Suite struct HockeyAppCrashUploadTests {
    static func fixture() throws -> [UInt8] { [UInt8](try LocalFixtures.data("inspect/hockeyapp/crash-upload.xml")) }

    @Test func readsTheFieldsUUIDsAndTheLogAsACrashReport() throws {
        let upload = try HockeyAppCrashUpload(bytes: try Self.fixture())
        let crash = try #require(upload.crashes.first)
        #expect(upload.crashes.count == 1)
        #expect(crash.bundleIdentifier == "com.example.fixture")
        #expect(crash.applicationName == "App")
        #expect(crash.version == "42")
        #expect(crash.versionString == "1.2")
        #expect(crash.platform == "iPhone14,5")
        #expect(crash.systemVersion == "17.4.1")
        #expect(crash.userName == "Ann & Bo", "entities are resolved")
        #expect(crash.userID == nil, "an empty element reads as absent")
        #expect(crash.userDescription == "Tapped parse twice.")
        #expect(crash.binaryUUIDs == [.init(type: "app", architecture: "arm64", uuid: try #require(UUID(uuidString: "4C4C440B-5555-3144-A184-68D7AACD7C75")))])
        let report = try crash.report()
        let original = try CrashReport(bytes: [UInt8](try LocalFixtures.data("symbols/crashes/App-legacy.crash")))
        #expect(report.threads == original.threads)
        #expect(report.images == original.images)
        #expect(report.incidentIdentifier == "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6")
    }

    @Test func documentsThatAreNotCrashUploadsAreRefusedNamingWhy() {
        func refuse(_ text: String, _ check: (HockeyAppCrashUploadError) -> Bool) {
            #expect {
                try HockeyAppCrashUpload(bytes: Array(text.utf8))
            } throws: { error in (error as? HockeyAppCrashUploadError).map(check) ?? false }
        }
        refuse("<feed/>") { $0 == .wrongRoot("feed") }
        refuse("<crashes></crashes>") { $0 == .noCrash }
        refuse("<crashes><crash><log>  </log></crash></crashes>") { $0 == .missing("log", crash: 1) }
        refuse("<crashes><crash><uuids><uuid>xyz</uuid></uuids><log>x</log></crash></crashes>") { $0 == .invalidUUID("xyz", crash: 1) }
        refuse("<crashes><crash></crashes>") { if case let .notWellFormed(detail) = $0 { detail.contains("</crashes> closes <crash>") } else { false } }
        refuse("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><crashes/>") { if case let .notWellFormed(detail) = $0 { detail.contains("DOCTYPE is not allowed") } else { false } }
        refuse("<crashes><crash><log>&unknown;</log></crash></crashes>") { if case let .notWellFormed(detail) = $0 { detail.contains("&unknown;") } else { false } }
        refuse("<crashes a='1' a='2'/>") { if case let .notWellFormed(detail) = $0 { detail.contains("appears twice") } else { false } }
        refuse(String(repeating: "<a>", count: 100)) { if case let .notWellFormed(detail) = $0 { detail.contains("nest 65 levels deep, more than the 64 allowed") } else { false } }
        refuse("<crashes/>trailing") { if case let .notWellFormed(detail) = $0 { detail.contains("content follows") } else { false } }
    }

    @Test func damagedUploadsGiveATypedErrorOrAnUploadWithALog() throws {
        var refused = 0
        for (label, bytes) in damagedVariants(of: try Self.fixture()) {
            do {
                let upload = try HockeyAppCrashUpload(bytes: bytes)
                #expect(upload.crashes.allSatisfy { !$0.log.isEmpty }, "\(label)")
            } catch {
                refused += 1
                #expect(!error.description.isEmpty, "\(label)")
            }
        }
        #expect(refused > 0)
    }
}
