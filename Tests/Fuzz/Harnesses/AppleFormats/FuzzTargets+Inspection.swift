// Fuzzing only: compiled into the AppleFormats module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AppleFormatsFuzz {
    /// Any file: `FileRecognizer` must name a kind or describe the bytes, the same way twice, and
    /// the parser of the kind it names must answer with a value or its typed error.
    static func recognize(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        let recognition = FileRecognizer.recognize(array)
        fuzzCheck(!recognition.evidence.isEmpty, "a recognition without evidence")
        fuzzCheck(FileRecognizer.recognize(array) == recognition, "recognising the same bytes twice gave two answers")
        fuzzConsume(FileRecognizer.describeFirstBytes(array))
        switch recognition.kind {
        case .kscrashReport?: kscrash(bytes)
        case .jetsamReport?, .diagnosticReport?: jetsam(bytes)
        case .deviceEnrollmentReply?: enrollment(bytes)
        case .mobileconfig?: mobileconfig(bytes)
        case .hockeyAppCrashXML?: hockeyApp(bytes)
        case .crashReport?: do { fuzzConsume(try CrashReport(bytes: array)) } catch { fuzzConsume(error.description) }
        case .provisioningProfile?: do { fuzzConsume(try ProvisioningProfile(bytes: array)) } catch { fuzzConsume(error.description) }
        case .plcrash?: fuzzCheck(PLCrashReporterFile(bytes: array) != nil, "recognised as plcrash without the header")
        default: break
        }
    }

    /// A KSCrash JSON report and its conversion to the common crash model.
    static func kscrash(_ bytes: UnsafeRawBufferPointer) {
        let report: KSCrashReport
        do { report = try KSCrashReport(bytes: Array(bytes)) } catch {
            fuzzConsume(error.description)
            return
        }
        let converted = report.crashReport()
        fuzzCheck(converted.images.count == report.images.count, "conversion lost images")
        fuzzCheck(converted.threads.count == report.threads.count, "conversion lost threads")
        for thread in converted.threads {
            for frame in thread.frames {
                if let index = frame.imageIndex { fuzzCheck(converted.images.indices.contains(index), "a frame names image \(index) of \(converted.images.count)") }
            }
        }
        fuzzCheck(report.crashedThread == nil || report.threads.contains { $0.crashed }, "a crashed thread that is not among the threads")
        do { fuzzConsume(try JSONEncoder().encode(converted)) } catch { fuzzCheck(false, "a converted report cannot be encoded: \(error)") }
    }

    /// A signed enrolment reply; what is accepted must hold the shapes the model promises.
    static func enrollment(_ bytes: UnsafeRawBufferPointer) {
        let reply: DeviceEnrollmentReply
        do { reply = try DeviceEnrollmentReply(bytes: Array(bytes)) } catch {
            fuzzConsume(error.description)
            return
        }
        fuzzCheck((try? DeviceIdentifier(reply.udid.value)) == reply.udid, "an accepted UDID does not read back as itself")
        for (key, value) in [("PRODUCT", reply.product), ("VERSION", reply.version), ("SERIAL", reply.serial), ("DEVICE_NAME", reply.deviceName),
                             ("IMEI", reply.imei), ("MEID", reply.meid), ("CHALLENGE", reply.challenge)] {
            guard let value, let limit = DeviceEnrollmentReply.textLimits[key] else { continue }
            fuzzCheck((try? DeviceEnrollmentReply.check(value, key: key, limit: limit)) != nil, "an accepted \(key) breaks its own rule")
        }
        fuzzCheck(reply.signer.map { reply.certificates.contains($0) } ?? true, "the signer is not among the certificates")
    }

    /// A `.mobileconfig`, signed or not: what is read must write as a plist that reads back the same.
    static func mobileconfig(_ bytes: UnsafeRawBufferPointer) {
        let file: MobileConfig
        do { file = try MobileConfig(bytes: Array(bytes)) } catch {
            fuzzConsume(error.description)
            return
        }
        do {
            let again = try ConfigurationProfile(plist: file.profile.plist)
            fuzzCheck(again == file.profile, "a profile read from its own plist differs")
            let xml = try file.profile.xmlBytes()
            fuzzCheck(try ConfigurationProfile(plistBytes: xml) == file.profile, "a profile written as XML reads back differently")
        } catch {
            fuzzCheck(false, "a profile that was read cannot be written and read back: \(error)")
        }
    }

    /// A HockeySDK crash upload and the crash report in its log.
    static func hockeyApp(_ bytes: UnsafeRawBufferPointer) {
        let upload: HockeyAppCrashUpload
        do { upload = try HockeyAppCrashUpload(bytes: Array(bytes)) } catch {
            fuzzConsume(error.description)
            return
        }
        fuzzCheck(!upload.crashes.isEmpty, "an upload without crashes was accepted")
        for crash in upload.crashes {
            do { fuzzConsume(try crash.report()) } catch { fuzzConsume(error.description) }
        }
    }

    /// An `.ips` report: the generic model, and the jetsam one (whose size order must be a
    /// permutation of the report order, largest first).
    static func jetsam(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        do {
            let report = try DiagnosticReport(bytes: array)
            fuzzConsume((report.bugTypeName, report.body))
        } catch {
            fuzzConsume(error.description)
        }
        let report: JetsamReport
        do { report = try JetsamReport(bytes: array) } catch {
            fuzzConsume(error.description)
            return
        }
        let sorted = report.processesBySize
        fuzzCheck(sorted.count == report.processes.count, "sorting lost processes")
        fuzzCheck(zip(sorted, sorted.dropFirst()).allSatisfy { $0.residentPages >= $1.residentPages }, "processes are not largest first")
        for process in report.processes { fuzzConsume(report.bytes(ofPages: process.residentPages)) }
    }
}

extension AppleFormatsFuzz {
    /// KSCrash's `reports` array split into reports: ranges in order, inside the input, each one
    /// a whole `{…}`; every report found is then read on its own.
    static func kscrashBatch(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        let ranges: [Range<Int>]
        do { ranges = try KSCrashBatch.split(array) } catch {
            fuzzConsume(error.description)
            return
        }
        var previousEnd = 0
        for range in ranges {
            fuzzCheck(range.lowerBound >= previousEnd && range.upperBound <= array.count, "report ranges overlap or leave the input")
            fuzzCheck(array[range.lowerBound] == UInt8(ascii: "{") && array[range.upperBound - 1] == UInt8(ascii: "}"), "a report range is not one object")
            previousEnd = range.upperBound
            do { fuzzConsume(try KSCrashReport(bytes: Array(array[range])).crashReport()) } catch { fuzzConsume(error.description) }
        }
    }
}

extension AppleFormatsFuzz {
    /// `.ips` bodies through both readers: `JSONParser` with `IPSBody(json:)` (the path reports
    /// take) must give exactly what the lenient `Codable` models give through JSONDecoder.
    static func ipsJSON(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        // Both readers are held to the same nesting limit: JSONDecoder only sees text that passes the check.
        let withinLimit = (try? JSONNesting.check(array)) != nil
        let decoded = withinLimit ? (try? JSONDecoder().decode(IPSBody.self, from: Data(array))).map { CrashReport(ips: $0, header: nil) } : nil
        let parsed: CrashReport?
        do { parsed = try IPSBody.read(array).map { CrashReport(ips: $0, header: nil) } } catch {
            fuzzCheck(error.nesting == nil || !withinLimit, "JSONParser refused nesting that JSONNesting.check allows: \(error)")
            fuzzConsume(error.description)
            parsed = nil
        }
        fuzzCheck(parsed == decoded, "JSONParser and JSONDecoder read an .ips body differently")
    }

    /// Any JSON text: `JSONParser` into a tape and a `JSONValue` tree, against `JSONNesting.check`
    /// (checked: a text the parser reads passes the check, and the parser's nesting error is the
    /// check's, at the same byte), and the tree read twice is the same.
    static func json(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        let checked: JSONNesting.TooDeep?
        do { try JSONNesting.check(array); checked = nil } catch { checked = error }
        do {
            let value = try JSONParser.parse(array)
            fuzzCheck(checked == nil, "JSONParser read text that JSONNesting.check refuses: \(checked.map(\.description) ?? "")")
            fuzzCheck((try? JSONParser.parse(array)) == value, "the same JSON text parsed twice gives different values")
        } catch {
            if let nesting = error.nesting {
                fuzzCheck(nesting == checked, "JSONParser refused nesting (\(nesting)) that JSONNesting.check reports as \(checked.map(\.description) ?? "allowed")")
            }
            fuzzConsume(error.description)
        }
    }
}
