import Mustache

/// The enrolment page: short illustrated steps, what the profile does, and the button that
/// downloads it.
struct EnrollPage: Sendable, MustacheRepresentable {
    var chrome: PageChrome
    var testerName: String
    var testerPageURL: String
    var profileURL: String
    var qrSVG: String
    /// The signing certificate's name, when the profile is served signed.
    var signer: String?
    /// The steps' illustrations: `download`, `settings` and `done`.
    var pictures: [String: String]

    var mustacheValue: MustacheValue {
        ["page": chrome.mustacheValue, "testerName": .string(testerName), "testerPageURL": .string(testerPageURL),
         "profileURL": .string(profileURL), "qrSVG": .string(qrSVG), "signer": signer.map(MustacheValue.string) ?? .null,
         "pictures": .object(pictures.mapValues(MustacheValue.string))]
    }
}
