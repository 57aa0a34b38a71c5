#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON each provisioning job keeps in its payload, updated (and committed) after every step,
/// so a run cut short resumes after the last step it finished.
enum ProvisioningPayload {
    /// `register-device`.
    struct Register: Codable, Sendable {
        /// The device.
        var udid: String

        var json: String { ProvisioningPayload.encode(self) }
    }

    /// `refresh-apps`: one batch of devices.
    struct Batch: Codable, Sendable {
        /// The devices of the batch, in the order they joined.
        var udids: [String]
        /// The releases to re-sign (the newest of each app offered to the devices' testers), once planned.
        var releases: [Int64]?
        /// Each app's name stamp for its new profiles, recorded before Apple is asked to make them.
        var stamps: [String: String] = [:]
        /// Each app's new profiles (its own and its extensions', by bundle id: UUID), once made and imported.
        var profiles: [String: [String: String]] = [:]
        /// The re-signed release made from each planned release (keys are the planned ids, as text).
        var resigned: [String: Int64] = [:]

        var json: String { ProvisioningPayload.encode(self) }

        init(udids: [String]) { self.udids = udids }

        /// Reads a payload; keys a step has not written yet are empty.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            udids = try container.decode([String].self, forKey: .udids)
            releases = try container.decodeIfPresent([Int64].self, forKey: .releases)
            stamps = try container.decodeIfPresent([String: String].self, forKey: .stamps) ?? [:]
            profiles = try container.decodeIfPresent([String: [String: String]].self, forKey: .profiles) ?? [:]
            resigned = try container.decodeIfPresent([String: Int64].self, forKey: .resigned) ?? [:]
        }
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, job: Int64) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(text.utf8)) } catch {
            throw ProvisioningFailure.permanent("job \(job)'s saved state cannot be read (\(error)); cancel it with `betactl jobs cancel \(job)` and approve the device again")
        }
    }
}
