#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension SymbolicatedReport {
    /// The structured form printed by `--json`: report metadata, the signature, every thread
    /// and frame with its locations (innermost inlined function first), and the images that
    /// had no symbols. Addresses are hexadecimal strings so no JSON reader loses precision.
    public func renderJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JSONView(self)), as: UTF8.self)
    }

    /// The value `renderJSON()` encodes, for documents that hold a symbolicated report among other
    /// fields (`betactl show-crash --json` and the API's crash report).
    public struct JSONView: Encodable, Sendable, Equatable {
        struct Process: Encodable, Sendable, Equatable {
            var name, path, bundleIdentifier, version, build: String?
            var pid: Int?
        }
        struct FrameView: Encodable, Sendable, Equatable {
            var number: Int
            var address: String
            var image: String?
            var imageUUID: String?
            var imageOffset: String?
            var status: Status
            var locations: [Location]
        }
        struct ThreadView: Encodable, Sendable, Equatable {
            var number: Int
            var name, queue: String?
            var crashed: Bool
            var frames: [FrameView]
        }
        struct ImageView: Encodable, Sendable, Equatable {
            var name: String
            var uuid, architecture, path: String?
            var loadAddress: String
        }

        var format: String
        var bugType, incidentIdentifier, osVersion, hardwareModel, codeType, date: String?
        var process: Process
        var exception: CrashReport.Exception?
        var terminationReason: String?
        var crashedThread: Int?
        var signature: CrashSignature
        var threads: [ThreadView]
        var lastExceptionBacktrace: [FrameView]?
        var imagesWithoutSymbols: [MissingSymbols]
        var images: [ImageView]

        /// The view of `result`.
        public init(_ result: SymbolicatedReport) {
            let report = result.report
            func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
            func view(_ frame: Frame) -> FrameView {
                FrameView(number: frame.frame.number, address: hex(frame.frame.address), image: frame.image?.name ?? frame.frame.imageName,
                          imageUUID: frame.image?.uuid?.uuidString, imageOffset: frame.imageOffset.map(hex), status: frame.status,
                          locations: frame.locations)
            }
            format = report.format.rawValue
            bugType = report.bugType
            incidentIdentifier = report.incidentIdentifier
            osVersion = report.osVersion
            hardwareModel = report.hardwareModel
            codeType = report.codeType
            date = report.date
            process = Process(name: report.processName, path: report.processPath, bundleIdentifier: report.bundleIdentifier,
                              version: report.version, build: report.build, pid: report.processID)
            exception = report.exception
            terminationReason = report.terminationReason
            crashedThread = report.crashedThread ?? report.threads.first(where: \.crashed)?.number  // the parsed threads: no frames built
            signature = result.signature
            threads = result.threads.map { ThreadView(number: $0.number, name: $0.name, queue: $0.queue, crashed: $0.crashed, frames: $0.frames.map(view)) }
            lastExceptionBacktrace = result.lastExceptionBacktrace?.map(view)
            imagesWithoutSymbols = result.imagesWithoutSymbols
            images = report.images.map { image in
                ImageView(name: image.name, uuid: image.uuid?.uuidString, architecture: image.architecture, path: image.path,
                          loadAddress: hex(image.loadAddress))
            }
        }
    }
}
