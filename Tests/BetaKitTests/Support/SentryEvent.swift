import Foundation
import AppleFormats

/// Sentry events (the CrashProbe fixtures) converted to crash reports, so the same symbolicator
/// runs on them. Sentry lists frames outermost first; crash reports innermost first.
enum SentryEvent {
    struct Event: Decodable {
        struct DebugMeta: Decodable { var images: [Image] }
        struct Image: Decodable {
            var name: String
            var uuid: String
            var image_addr: String
            var image_size: UInt64
            var cpu_type: Int32
            var cpu_subtype: Int32
        }
        struct Threads: Decodable { var values: [Thread] }
        struct Thread: Decodable {
            var crashed: Bool?
            var stacktrace: Stacktrace?
        }
        struct Stacktrace: Decodable { var frames: [Frame] }
        struct Frame: Decodable {
            var instruction_addr: String
            var function: String?
            var package: String?
        }
        var debug_meta: DebugMeta
        var threads: Threads
    }

    static func hex(_ text: String) -> UInt64 { UInt64(text.dropFirst(2), radix: 16) ?? 0 }

    static func report(_ data: Data) throws -> (CrashReport, deviceSymbols: [[String?]]) {
        let event = try JSONDecoder().decode(Event.self, from: data)
        var report = CrashReport(format: .text)
        report.images = event.debug_meta.images.map { image in
            let arch = MachOArchitecture(cpuType: image.cpu_type, cpuSubtype: image.cpu_subtype).name
            return CrashReport.Image(name: String(image.name.split(separator: "/").last ?? ""), path: image.name, uuid: UUID(uuidString: image.uuid),
                                     architecture: arch, loadAddress: hex(image.image_addr), endAddress: hex(image.image_addr) + image.image_size - 1)
        }
        var symbols: [[String?]] = []
        for (number, thread) in event.threads.values.enumerated() {
            let frames = (thread.stacktrace?.frames ?? []).reversed()
            report.threads.append(CrashReport.Thread(number: number, crashed: thread.crashed ?? false,
                                                     frames: frames.enumerated().map { CrashReport.Frame(number: $0, address: hex($1.instruction_addr)) }))
            symbols.append(frames.map(\.function))
        }
        report.processPath = report.images.first?.path
        report.processName = report.images.first?.name
        report.resolveImagesForTests()
        return (report, symbols)
    }
}

extension CrashReport {
    mutating func resolveImagesForTests() {
        for t in threads.indices {
            for f in threads[t].frames.indices {
                let address = threads[t].frames[f].address
                threads[t].frames[f].imageIndex = images.firstIndex { $0.contains(address) }
            }
        }
    }
}
