#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

extension TesterController {
    /// The body limit of the tester page's upload: every allowed file at its largest, plus the form.
    var crashPageBodyLimit: Int64 { configuration.crashes.maxReportBytes * Int64(max(1, configuration.crashes.maxFilesPerUpload)) + (1 << 20) }

    /// `POST /t/<token>/crashes`: the page's form, files in `report`, text in `description`.
    func testerCrashUpload(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let chrome = site.chrome(request, title: "Crash reports", settings: context.snapshot.settings, base: context.urls.base)
        func page(_ heading: String, _ outcomes: [CrashUploadPage.Outcome], status: HTTPStatus, retryAfter: Int? = nil) throws -> Response {
            let page = CrashUploadPage(chrome: chrome, heading: heading, outcomes: outcomes, testerPageURL: context.urls.page)
            var response = Response.html(try renderer.render("crash-upload", page), status: status)
            if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
            return response
        }
        do {
            let read = intake.multipartReader(request, stripsHockeyCRLF: false, fields: ["report": configuration.crashes.maxReportBytes],
                                       maxParts: configuration.crashes.maxFilesPerUpload + 4)
            let maxFiles = configuration.crashes.maxFilesPerUpload
            let testerID = context.tester.id
            // Reading the form and recognising each file happen on the pool, never on the loop.
            guard let sorted = try await pool.run({ () throws -> ([CrashUploadPage.Outcome], [(Int, CrashSubmission)])? in
                let parts = try read()
                let description = parts.first { $0.name == "description" }?.text
                var outcomes: [CrashUploadPage.Outcome] = []
                var submissions: [(Int, CrashSubmission)] = []
                let files = parts.filter { $0.name == "report" && (!$0.bytes.isEmpty || $0.head.filename?.isEmpty == false) }
                guard !files.isEmpty else { return nil }
                guard files.count <= maxFiles else {
                    throw IntakeRefusal(status: .contentTooLarge, message: "Send at most \(maxFiles) reports at once.")
                }
                for part in files {
                    let name = part.head.filename.flatMap { $0.isEmpty ? nil : $0 } ?? "Report"
                    let bytes = part.bytes
                    guard !bytes.isEmpty else {
                        outcomes.append(.init(name: name, text: "The file is empty.", ok: false))
                        continue
                    }
                    let (accepted, evidence) = CrashStore.recognize(bytes)
                    guard accepted else {
                        outcomes.append(.init(name: name, text: "Not a crash report (it looks like \(evidence)). Send the .ips or .crash file iOS wrote.", ok: false))
                        continue
                    }
                    submissions.append((outcomes.count, CrashSubmission(bytes: bytes, source: .page, fileName: name, testerID: testerID,
                                                                         description: description)))
                    outcomes.append(.init(name: name, text: "", ok: true))
                }
                return (outcomes, submissions)
            }) else {
                return try page("No report was sent", [.init(name: "Report", text: "Choose a report file first (.ips, .crash or .txt).", ok: false)], status: .badRequest)
            }
            var outcomes = sorted.0
            let submissions = sorted.1
            if !submissions.isEmpty {
                if let wait = crashes.limiter.take("tester:\(context.tester.id)", cost: submissions.count) {
                    let seconds = RateLimiter.retryAfterSeconds(wait)
                    return try page("Too many reports at once", [.init(name: "Reports", text: "You sent many reports in a short time. Wait \(seconds) seconds and send them again.", ok: false)],
                                    status: IntakeRefusal.tooManyRequests, retryAfter: seconds)
                }
                let receipts = try await crashes.submit(submissions.map(\.1))
                for ((position, _), receipt) in zip(submissions, receipts) {
                    outcomes[position].text = receipt.duplicate
                        ? "Already received as report \(receipt.reportID); thank you for sending it again."
                        : "Received as report \(receipt.reportID). It is being processed; your page lists it."
                }
            }
            let stored = outcomes.filter(\.ok).count
            let heading = stored == outcomes.count ? (stored == 1 ? "Thank you: your report was received" : "Thank you: your reports were received")
                : stored == 0 ? "No report was received" : "Some reports were received"
            return try page(heading, outcomes, status: stored == 0 ? IntakeRefusal.unprocessable : .ok)
        } catch let refusal as IntakeRefusal {
            return try page("The upload was refused", [.init(name: "Reports", text: refusal.message, ok: false)], status: refusal.status,
                            retryAfter: refusal.retryAfter)
        } catch let error as CrashError {
            return try page("The upload was refused", [.init(name: "Reports", text: IntakeController.sentence(error.description), ok: false)],
                            status: error.category == .invalidInput ? IntakeRefusal.unprocessable : .badRequest)
        }
    }

    /// The tester page's crash section: the form and the tester's newest reports.
    func crashSection(_ context: TesterRequest) async throws -> CrashSection {
        let store = crashes.store
        let id = context.tester.id
        let (records, groups) = try await pool.run { (try store.reports(CrashFilter(testerID: id, limit: 20)), try store.groups(testerID: id)) }
        return CrashSection(uploadURL: context.urls.crashes, records: records, groups: groups)
    }
}
