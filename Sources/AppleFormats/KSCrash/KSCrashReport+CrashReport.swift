extension KSCrashReport {
    /// The report in betactl's common crash model, so it can be symbolicated and rendered like an
    /// Apple report: images keep their UUID, architecture and load range; frames their absolute
    /// addresses, linked to images by `object_addr` (else by range), with the device's symbols.
    public func crashReport() -> CrashReport {
        var report = CrashReport(format: .kscrash)
        report.incidentIdentifier = reportID
        report.processName = processName ?? system.executable
        report.bundleIdentifier = system.bundleIdentifier
        report.version = system.shortVersion
        report.build = system.bundleVersion
        report.osVersion = system.osDescription
        report.hardwareModel = system.machine
        report.codeType = system.cpuArchitecture
        report.date = timestamp
        report.reportVersion = "KSCrash \(formatVersion)"
        if let error {
            let note = [error.exceptionName, error.exceptionReason].compactMap { $0 }.joined(separator: ": ")
            report.exception = CrashReport.Exception(type: error.machException ?? error.signal, signal: error.signal, codes: error.machCode,
                                                     subtype: error.address.map { "address 0x" + String($0, radix: 16) },
                                                     note: note.isEmpty ? error.reason ?? error.cppExceptionName : note)
        }
        report.applicationSpecificInformation = diagnosis
        report.images = images.map { image in
            var converted = CrashReport.Image(name: image.name, path: image.path, uuid: image.uuid, architecture: image.architecture?.name,
                                              loadAddress: image.loadAddress)
            if let size = image.size, size > 0 { converted.endAddress = image.loadAddress &+ (size - 1) }
            return converted
        }
        var byLoadAddress: [UInt64: Int] = [:]
        for (index, image) in images.enumerated() where byLoadAddress[image.loadAddress] == nil { byLoadAddress[image.loadAddress] = index }
        report.threads = threads.map { thread in
            let frames = thread.frames.enumerated().map { number, frame in
                var converted = CrashReport.Frame(number: number, address: frame.instructionAddress)
                converted.imageIndex = frame.objectAddress.flatMap { byLoadAddress[$0] }
                    ?? report.images.firstIndex { $0.contains(frame.instructionAddress) }
                converted.imageName = frame.objectName ?? converted.imageIndex.map { report.images[$0].name }
                converted.symbol = frame.symbolName
                if let start = frame.symbolAddress, frame.symbolName != nil, frame.instructionAddress >= start {
                    converted.symbolOffset = frame.instructionAddress - start
                }
                return converted
            }
            return CrashReport.Thread(number: thread.index, name: thread.name, queue: thread.queue, crashed: thread.crashed, frames: frames)
        }
        report.crashedThread = crashedThread?.index
        return report
    }
}
