// Fuzzing only: compiled into the BetaKit module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension BetaKitFuzz {
    /// A scratch home with two testers, made once per fuzzing process.
    static let enrollmentHome: (home: Home, ann: Int64, bo: Int64)? = {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        guard let home = try? Home.initialise(at: directory + "/enroll-home", change: HomeSettingsChange(), now: now).home,
              let ann = try? Roster(home: home).addTester(NewTester(name: "Ann"), now: now),
              let bo = try? Roster(home: home).addTester(NewTester(name: "Bo"), now: now),
              // Every request is approved at once, so a good reply registers its device as before requests existed.
              (try? DeviceRequests(home: home).setRule(.all, now: now)) != nil else { return nil }
        return (home, ann.id, bo.id)
    }()

    /// How the challenge in the reply stands, chosen by the input's first byte.
    enum ChallengeScenario: UInt8, CaseIterable {
        case valid, otherTesters, expired, used, unknown
    }

    /// A device's enrolment reply as the server receives it: the first byte picks how the reply's own
    /// challenge stands (valid for Ann, Bo's, expired, used, never handed out) and, with its high
    /// bit, a strict server (replies must be signed by an Apple device) rather than one started with
    /// `--allow-unverified-enrollment`; the rest is the body. `DeviceEnrollment.receive` must never
    /// throw for anything posted, must add a device only for a readable reply with a valid challenge
    /// (and, when strict, a signature that verifies), and must keep a result that reads back identically.
    static func enrollmentIntake(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first, let (home, ann, bo) = enrollmentHome else { return }
        let strict = first & 0x80 != 0
        let scenario = ChallengeScenario.allCases[Int(first & 0x7F) % ChallengeScenario.allCases.count]
        let body = Array(bytes.dropFirst())
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let parsed = body.count <= DeviceEnrollment.maxReplySize ? try? DeviceEnrollmentReply(bytes: body) : nil
        let challenge = parsed?.challenge.flatMap { InviteToken.isPlausible($0) ? $0 : nil }
        do {
            try home.store.write { db in
                for table in ["enrolled_devices", "device_history", "devices", "enrollment_results", "enrollment_challenges", "device_requests"] {
                    try db.execute("DELETE FROM \(table)")
                }
                guard let challenge, scenario != .unknown else { return }
                let expires = Timestamp.string(now.addingTimeInterval(scenario == .expired ? -60 : 600))
                try db.query("INSERT INTO enrollment_challenges (digest, tester_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?)",
                             [.text(InviteToken.digest(challenge)), .integer(scenario == .otherTesters ? bo : ann),
                              .text(Timestamp.string(now)), .text(expires), scenario == .used ? .text(Timestamp.string(now)) : .null])
            }
        } catch {
            fuzzCheck(false, "the scratch home could not be reset: \(error)")
        }
        let enrollment = DeviceEnrollment(home: home, acceptsUnverified: !strict)
        let verifies = parsed != nil && (try? DeviceReplyVerifier.verify(body)) != nil
        let result: EnrollmentResult
        do { result = try enrollment.receive(body, testerID: ann, now: now) } catch {
            fuzzCheck(false, "receive threw for a posted body: \(error)")
            return
        }
        let devices = (try? Roster(home: home).devices()) ?? []
        let knownFamily = parsed?.product.flatMap(DeviceFamily.init(modelCode:)) != nil
        if strict, parsed != nil, !verifies {
            fuzzCheck(result.outcome == .unverified, "a strict server took in an unverified reply as \(result.outcome)")
        } else if let parsed, knownFamily, challenge != nil {
            let expected: EnrollmentResult.Outcome = switch scenario {
            case .valid: .registered
            case .otherTesters: .wrongTester
            case .expired: .expired
            case .used: .challengeUsed
            case .unknown: .unknownChallenge
            }
            fuzzCheck(result.outcome == expected, "a readable reply in scenario \(scenario) came out \(result.outcome), not \(expected)")
            fuzzCheck(result.udid == parsed.udid, "the result names another device than the reply")
        } else {
            fuzzCheck([.unreadable, .unknownChallenge, .tooLarge].contains(result.outcome),
                      "an unusable reply came out \(result.outcome)")
        }
        if result.outcome == .registered {
            fuzzCheck(devices.count == 1 && devices.first?.identifier == result.udid && devices.first?.testerID == ann
                      && devices.first?.isPending == true, "a registered reply did not leave exactly its device, pending, with Ann")
        } else {
            fuzzCheck(devices.isEmpty, "a refused reply (\(result.outcome)) added \(devices.count) devices")
        }
        let stored = try? enrollment.result(reference: result.reference, testerID: ann)
        fuzzCheck(stored == result, "the stored result reads back differently")
        fuzzCheck((try? enrollment.result(reference: result.reference, testerID: bo)) == nil, "another tester can see the result")
    }
}
