/// The JSON:API shapes App Store Connect answers with (only the members betactl reads).
enum ASC {
    /// One resource: `type`, `id`, its attributes and the ids of related resources.
    struct Resource<Attributes: Decodable & Sendable>: Decodable, Sendable {
        var type: String
        var id: String
        var attributes: Attributes?
        var relationships: [String: Relationship]?
    }

    /// A relationship's linkage: one resource identifier or a list of them.
    struct Relationship: Decodable, Sendable {
        var ids: [String]

        enum CodingKeys: String, CodingKey { case data }
        struct Identifier: Decodable, Sendable { var type: String; var id: String }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let many = try? container.decodeIfPresent([Identifier].self, forKey: .data) {
                ids = many.map(\.id)
            } else if let one = try? container.decodeIfPresent(Identifier.self, forKey: .data) {
                ids = [one.id]
            } else {
                ids = []
            }
        }
    }

    /// A page of resources, with what was included alongside.
    struct List<Attributes: Decodable & Sendable, Included: Decodable & Sendable>: Decodable, Sendable {
        var data: [Resource<Attributes>]
        var included: [Resource<Included>]?
        var links: Links?
    }

    /// One resource.
    struct Single<Attributes: Decodable & Sendable>: Decodable, Sendable {
        var data: Resource<Attributes>
    }

    /// Paging links.
    struct Links: Decodable, Sendable {
        var next: String?
    }

    /// Apple's error body: `errors[].status/code/title/detail`.
    struct Errors: Decodable, Sendable {
        struct Entry: Decodable, Sendable {
            var status: String?
            var code: String?
            var title: String?
            var detail: String?
        }
        var errors: [Entry]
    }

    /// Nothing included.
    struct Nothing: Decodable, Sendable {}

    struct DeviceAttributes: Decodable, Sendable {
        var name: String?
        var platform: String?
        var udid: String?
        var deviceClass: String?
        var status: String?
        var model: String?
        var addedDate: String?
    }

    struct BundleIDAttributes: Decodable, Sendable {
        var name: String?
        var platform: String?
        var identifier: String?
        var seedId: String?
    }

    struct CertificateAttributes: Decodable, Sendable {
        var name: String?
        var certificateType: String?
        var displayName: String?
        var serialNumber: String?
        var expirationDate: String?
    }

    struct ProfileAttributes: Decodable, Sendable {
        var name: String?
        var profileType: String?
        var profileState: String?
        var profileContent: String?
        var uuid: String?
        var expirationDate: String?
    }
}
