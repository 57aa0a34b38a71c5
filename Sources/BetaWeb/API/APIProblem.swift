#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Multipart

/// An API error as RFC 9457 `application/problem+json`: a stable `type` per kind of error, its
/// status, a title, and as `detail` the same one-sentence message the CLI prints.
struct APIProblem: Error, Sendable, CustomStringConvertible {
    /// What kind of error it is; the raw value is the last part of the `type` URI and never changes.
    enum Kind: String, Sendable, CaseIterable {
        case unauthorized
        case insufficientScope = "insufficient-scope"
        case notFound = "not-found"
        case methodNotAllowed = "method-not-allowed"
        case badRequest = "bad-request"
        case invalidJSON = "invalid-json"
        case invalidCursor = "invalid-cursor"
        case invalidMultipart = "invalid-multipart"
        case unsupportedMediaType = "unsupported-media-type"
        case contentTooLarge = "content-too-large"
        case missingField = "missing-field"
        case invalidTester = "invalid-tester"
        case invalidDevice = "invalid-device"
        case invalidUDID = "invalid-udid"
        case duplicateEmail = "duplicate-email"
        case ambiguousTester = "ambiguous-tester"
        case testerNotFound = "tester-not-found"
        case deviceNotFound = "device-not-found"
        case deviceAlreadyRegistered = "device-already-registered"
        case deviceAlreadyRemoved = "device-already-removed"
        case deviceLimitReached = "device-limit-reached"
        case buildRefused = "build-refused"
        case unreadableBuild = "unreadable-build"
        case alreadyReleased = "already-released"
        case alreadyRevoked = "already-revoked"
        case releaseNotFound = "release-not-found"
        case noSymbols = "no-symbols"
        case invalidProfile = "invalid-profile"
        case profileNotFound = "profile-not-found"
        case ambiguousProfile = "ambiguous-profile"
        case invalidSettings = "invalid-settings"
        case invalidToken = "invalid-token"
        case tokenNameTaken = "token-name-taken"
        case tokenNotFound = "token-not-found"
        case crashNotFound = "crash-not-found"
        case crashGroupNotFound = "crash-group-not-found"
        case invalidInput = "invalid-input"
        case refused
        case tooManyRequests = "too-many-requests"
        case serviceUnavailable = "service-unavailable"
        case appleUnavailable = "apple-unavailable"
        case internalError = "internal-error"

        /// The problem's `type`: a URN, stable forever, naming betactl and the kind.
        var typeURI: String { "urn:betactl:problem:\(rawValue)" }

        /// The HTTP status this kind is answered with.
        var status: HTTPStatus {
            switch self {
            case .unauthorized: .unauthorized
            case .insufficientScope: .forbidden
            case .notFound, .testerNotFound, .deviceNotFound, .releaseNotFound, .profileNotFound, .tokenNotFound, .crashNotFound,
                 .crashGroupNotFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            case .badRequest, .invalidJSON, .invalidCursor, .invalidMultipart: .badRequest
            case .unsupportedMediaType: HTTPStatus(code: 415)
            case .contentTooLarge: .contentTooLarge
            case .missingField, .invalidTester, .invalidDevice, .invalidUDID, .buildRefused, .unreadableBuild, .noSymbols,
                 .invalidProfile, .invalidSettings, .invalidToken, .invalidInput:
                HTTPStatus(code: 422)
            case .duplicateEmail, .ambiguousTester, .deviceAlreadyRegistered, .deviceAlreadyRemoved, .deviceLimitReached,
                 .alreadyReleased, .alreadyRevoked, .ambiguousProfile, .tokenNameTaken, .refused:
                HTTPStatus(code: 409)
            case .tooManyRequests: HTTPStatus(code: 429)
            case .serviceUnavailable: .serviceUnavailable
            case .appleUnavailable: HTTPStatus(code: 502)
            case .internalError: .internalServerError
            }
        }

        /// A short, fixed summary of the kind (RFC 9457 `title`).
        var title: String {
            switch self {
            case .unauthorized: "Authentication required"
            case .insufficientScope: "The token's scope does not allow this"
            case .notFound: "Not found"
            case .methodNotAllowed: "Method not allowed"
            case .badRequest: "Bad request"
            case .invalidJSON: "The body is not the JSON this operation takes"
            case .invalidCursor: "Invalid cursor"
            case .invalidMultipart: "The multipart body cannot be read"
            case .unsupportedMediaType: "Unsupported media type"
            case .contentTooLarge: "Content too large"
            case .missingField: "A required field is missing"
            case .invalidTester: "Invalid tester"
            case .invalidDevice: "Invalid device"
            case .invalidUDID: "Invalid UDID"
            case .duplicateEmail: "Email already in use"
            case .ambiguousTester: "Several testers match"
            case .testerNotFound: "No such tester"
            case .deviceNotFound: "No such device"
            case .deviceAlreadyRegistered: "Device already registered"
            case .deviceAlreadyRemoved: "Device already removed"
            case .deviceLimitReached: "All device slots of the family are used"
            case .buildRefused: "The build cannot be released"
            case .unreadableBuild: "The build cannot be read"
            case .alreadyReleased: "This build was already released"
            case .alreadyRevoked: "Release already revoked"
            case .releaseNotFound: "No such release"
            case .noSymbols: "No dSYM in the upload"
            case .invalidProfile: "Invalid provisioning profile"
            case .profileNotFound: "No such profile"
            case .ambiguousProfile: "Several profiles match"
            case .invalidSettings: "Invalid settings"
            case .invalidToken: "Invalid token"
            case .tokenNameTaken: "Token name already in use"
            case .tokenNotFound: "No such token"
            case .crashNotFound: "No such crash report"
            case .crashGroupNotFound: "No such crash group"
            case .invalidInput: "Invalid input"
            case .refused: "Refused"
            case .tooManyRequests: "Too many requests"
            case .serviceUnavailable: "Service unavailable"
            case .appleUnavailable: "App Store Connect could not be reached, or its answer could not be used"
            case .internalError: "Internal server error"
            }
        }
    }

    /// One of several reasons, listed in `errors` (every refusal of a build at once).
    struct Item: Encodable, Sendable, Equatable {
        /// One sentence naming the value and the fix.
        var detail: String
    }

    var kind: Kind
    var detail: String
    var errors: [Item] = []
    var headers: HTTPHeaders = [:]
    /// Extension members, e.g. the earlier `releaseId` of an already released build.
    var extensions: [String: JSONValue] = [:]

    init(_ kind: Kind, _ detail: String, errors: [Item] = [], headers: HTTPHeaders = [:], extensions: [String: JSONValue] = [:]) {
        self.kind = kind
        self.detail = detail
        self.errors = errors
        self.headers = headers
        self.extensions = extensions
    }

    var description: String { "\(kind.rawValue): \(detail)" }

    /// The problem+json response for a request to `instance`.
    func response(instance: String, requestID: String) -> Response {
        var body: [String: JSONValue] = extensions
        body["type"] = .string(kind.typeURI)
        body["title"] = .string(kind.title)
        body["status"] = .int(Int64(kind.status.code))
        body["detail"] = .string(detail)
        body["instance"] = .string(instance)
        if !requestID.isEmpty { body["requestId"] = .string(requestID) }
        if !errors.isEmpty { body["errors"] = .array(errors.map { ["detail": .string($0.detail)] }) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(JSONValue.object(body))).map(Array.init) ?? Array("{}".utf8)
        var response = Response(status: kind.status, headers: ["Content-Type": "application/problem+json"], body: .bytes(bytes))
        for field in headers { response.headers.set(field.name, field.value) }
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}

extension APIProblem {
    /// The problem for an error a handler threw; nil for errors that are the server's own failure
    /// (they become a 500 that names only the request id).
    static func from(_ error: any Error) -> APIProblem? {
        switch error {
        case let problem as APIProblem: return problem
        case let error as RosterError: return roster(error)
        case let error as ArchiveError: return archive(error)
        case let error as DeviceRequestError:
            switch error {
            case .notFound: return APIProblem(.deviceNotFound, error.description)
            case .testerRemoved: return APIProblem(.refused, error.description)
            case .invalidGroup: return APIProblem(.invalidInput, error.description)
            }
        case let error as AuthError:
            switch error {
            case .invalidName, .invalidScope: return APIProblem(.invalidToken, error.description)
            case .duplicateName: return APIProblem(.tokenNameTaken, error.description)
            case .unknownToken: return APIProblem(.tokenNotFound, error.description)
            }
        case let error as CrashError:
            switch error {
            case .unknownReport: return APIProblem(.crashNotFound, error.description)
            case .unknownGroup: return APIProblem(.crashGroupNotFound, error.description)
            case .tooLarge: return APIProblem(.contentTooLarge, error.description)
            default: return error.category == .invalidInput ? APIProblem(.invalidInput, error.description) : APIProblem(.refused, error.description)
            }
        case let error as ResignError:
            return error.category == .invalidInput ? APIProblem(.invalidInput, error.description) : APIProblem(.refused, error.description)
        case let error as JobError:
            switch error {
            case .unknownJob: return APIProblem(.notFound, error.description)
            case .invalidWindow: return APIProblem(.invalidInput, error.description)
            default: return APIProblem(.refused, error.description)
            }
        case let error as DeviceIdentifierError: return APIProblem(.invalidUDID, error.description)
        case let error as ProvisioningProfileError: return APIProblem(.invalidProfile, "the provisioning profile cannot be read: \(error)")
        case let error as HomeError:
            return error.category == .invalidInput ? APIProblem(.invalidSettings, error.description) : nil
        case let error as IngestError:
            return error.category == .invalidInput ? APIProblem(.unreadableBuild, error.description) : nil
        case let error as MultipartError: return multipart(error)
        case let error as URLEncodedFormError: return APIProblem(.badRequest, error.description)
        case let error as HTTPError where error.status.code < 500:
            let kind: Kind = switch error.status.code {
            case 401: .unauthorized
            case 403: .insufficientScope
            case 404: .notFound
            case 405: .methodNotAllowed
            case 413: .contentTooLarge
            case 415: .unsupportedMediaType
            case 429: .tooManyRequests
            default: .badRequest
            }
            return APIProblem(kind, error.message, headers: error.headers)
        case let error as BlockingPoolError: return APIProblem(.serviceUnavailable, error.description, headers: ["Retry-After": "5"])
        case let error as AppStoreConnectError where error.category == .failed: return APIProblem(.appleUnavailable, error.description)
        case let error as CategorizedError:
            switch error.category {
            case .invalidInput: return APIProblem(.invalidInput, "\(error)")
            case .refused: return APIProblem(.refused, "\(error)")
            case .failed: return nil
            }
        default: return nil
        }
    }

    static func roster(_ error: RosterError) -> APIProblem {
        let kind: Kind = switch error {
        case .emptyName, .nulInTesterName, .invalidEmail, .invalidGroup: .invalidTester
        case .nulInDeviceName: .invalidDevice
        case .duplicateEmail: .duplicateEmail
        case .testerNotFound: .testerNotFound
        case .ambiguousTester: .ambiguousTester
        case .deviceAlreadyRegistered: .deviceAlreadyRegistered
        case .deviceNotFound: .deviceNotFound
        case .deviceAlreadyRemoved: .deviceAlreadyRemoved
        case .familyRequired, .unknownModel, .unknownFamily, .modelFamilyMismatch: .invalidDevice
        case .limitReached: .deviceLimitReached
        }
        var problem = APIProblem(kind, error.description)
        if case let .limitReached(_, family, used, limit, removed, renews) = error {
            problem.extensions = ["family": .string(family.rawValue), "used": .int(Int64(used)), "limit": .int(Int64(limit)),
                                  "removedStillCounting": .int(Int64(removed)), "renews": .string(renews.description)]
        }
        return problem
    }

    static func archive(_ error: ArchiveError) -> APIProblem? {
        switch error {
        case .unknownProfile: return APIProblem(.profileNotFound, error.description)
        case .ambiguousProfile: return APIProblem(.ambiguousProfile, error.description)
        case .unknownRelease: return APIProblem(.releaseNotFound, error.description)
        case .alreadyRevoked: return APIProblem(.alreadyRevoked, error.description)
        case let .refused(validation):
            let count = validation.refusals.count
            return APIProblem(.buildRefused, "the build cannot be released (\(count) problem\(count == 1 ? "" : "s")); each is listed in errors",
                              errors: validation.refusals.map { Item(detail: $0.description) })
        case .noSymbols: return APIProblem(.noSymbols, error.description)
        case .missingBlob: return nil
        case let .alreadyReleased(earlier):
            return APIProblem(.alreadyReleased, error.description.replacing("pass --again", with: "send again=true"),
                              extensions: ["releaseId": .int(earlier.id)])
        }
    }

    static func multipart(_ error: MultipartError) -> APIProblem {
        switch error {
        case .notFormData: return APIProblem(.unsupportedMediaType, error.description)
        case .partTooLarge, .totalTooLarge: return APIProblem(.contentTooLarge, error.description)
        case .storageFailed, .readFailed, .consumerFailed, .alreadyFinished:
            return APIProblem(.internalError, error.description)
        default: return APIProblem(.invalidMultipart, error.description)
        }
    }
}
