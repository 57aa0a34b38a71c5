import AppleFormats

extension SymbolicatedReport {
    /// The report in Apple's text layout, as Xcode shows a symbolicated crash: each frame reads
    /// `N   Image   0xADDRESS symbol (in Image) (File.swift:LINE)`, and inlined functions get
    /// their own line with the same number and address, marked `[inlined]`.
    ///
    /// A text report keeps every line it had, with frame lines replaced; a JSON `.ips` report is
    /// laid out as the text report Xcode translates it to.
    public func renderText() -> String {
        String(decoding: renderTextBytes(), as: UTF8.self)
    }

    /// `renderText()` as UTF-8 bytes, ready to write.
    public func renderTextBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        renderText(appendingTo: &bytes)
        return bytes
    }

    /// Appends `renderText()` to `bytes`.
    public func renderText(appendingTo bytes: inout [UInt8]) {
        var out = TextOutput(capacity: estimatedTextSize)
        renderText(appendingTo: &out)
        out.copy(to: &bytes)
    }

    /// Appends `renderText()` to `out`; a caller rendering many reports can reuse one buffer and
    /// write it out from there.
    public func renderText(appendingTo out: inout TextOutput) {
        out.reserve(estimatedTextSize)
        if let text = report.text, report.format != .ips {
            renderEditing(text, into: &out)
        } else {
            renderFromModel(into: &out)
        }
    }

    /// About how many bytes the rendered text takes: the original text (or a line per image) and
    /// a line per frame, so that the buffer rarely grows while it is written.
    private var estimatedTextSize: Int {
        (report.text?.utf8.count ?? 96 * report.images.count + 1024) + 96 * resolutions.count + 1024
    }

    /// How many hex digits addresses are printed with: 16 for 64-bit processes, 8 for 32-bit ones.
    var addressDigits: Int {
        if let code = report.codeType { return code.containsBytes("64") ? 16 : 8 }
        return report.images.contains { $0.loadAddress > UInt64(UInt32.max) } ? 16 : 8
    }

    /// Where a frame's replacement lines go in the original text.
    private struct Replacement {
        var line: Int
        /// The thread (-1 for the exception backtrace) and frame (-1 for all of the backtrace).
        var thread: Int
        var frame: Int
    }

    /// Layout shared by the frame lines of one report: the address width, and the last image
    /// name with its padding (frames of one image follow each other).
    struct FrameColumns {
        var digits: Int
        /// Each image's name, padding and the tab and "0x" before the address, as they are written,
        /// one after another; `ranges[image]` says where (empty until the image's first frame).
        var runs: [UInt8] = []
        var ranges: [Range<Int>]
        /// The same for the last name a frame without an image carried.
        var otherName: String?
        var otherRun: [UInt8] = []

        init(digits: Int, imageCount: Int) {
            self.digits = digits
            ranges = Array(repeating: 0 ..< 0, count: imageCount)
        }

        /// `name`, its padding and "\t0x", for report image `image` (-1 for none). Columns count
        /// characters, which for the usual ASCII names is the byte count, found without grapheme
        /// breaking. Each image's run is made once per report.
        static func run(_ name: String) -> [UInt8] {
            let width = name.utf8.allSatisfy { $0 < 0x80 } ? name.utf8.count : name.count
            return Array(name.utf8) + Array(repeating: UInt8(ascii: " "), count: Swift.min(64, Swift.max(1, 36 - width))) + Array("\t0x".utf8)
        }

        /// Writes the name of report image `image` (or, for -1, `name`), its padding and "\t0x".
        mutating func appendName(_ name: String, image: Int32, to out: inout TextOutput) {
            if image >= 0, Int(image) < ranges.count {
                let index = Int(image)
                if ranges[index].isEmpty {
                    let run = Self.run(name)
                    ranges[index] = runs.count ..< runs.count + run.count
                    runs += run
                }
                let range = ranges[index]
                runs.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[range])) }
                return
            }
            if name != otherName {
                otherName = name
                otherRun = Self.run(name)
            }
            otherRun.withUnsafeBufferPointer { out.append($0) }
        }
    }

    /// The lines of one frame: one per location (inlined functions first), or the image and
    /// offset when nothing is known. Each line ends with "\n".
    ///
    /// The frame is read field by field where it is: passed as a value (even `borrowing`), each
    /// frame was copied, its strings retained and released.
    func appendFrameLines(_ frames: UnsafeBufferPointer<CrashReport.Frame>, _ position: Int, _ resolution: FrameResolution,
                          columns: inout FrameColumns, to out: inout TextOutput) {
        let image = resolution.imageIndex >= 0 ? Int(resolution.imageIndex) : nil
        let imageName = image.map { report.images[$0].name } ?? frames[position].imageName ?? "???"
        let head = out.count
        out.append(frames[position].number)
        out.pad(to: head + 4, minimum: 1)
        columns.appendName(imageName, image: resolution.imageIndex, to: &out)
        out.appendHex(frames[position].address, digits: columns.digits)
        out.append(" ")
        let headEnd = out.count
        guard let resolved = resolution.resolved else {
            if let image, let offset = resolution.imageOffset {
                out.append("0x")
                out.appendHex(report.images[image].loadAddress, digits: 0)
                out.append(" + ")
                out.append(offset)
            } else {
                out.append("0x0 + 0")
            }
            out.append("\n")
            return
        }
        // Inlined locations repeat the number, image and address.
        resolved.appendLines(imageName: imageName, head: head ..< headEnd, to: &out)
    }

    /// The lines of frames `range` of `frames` (a thread's or the exception backtrace), whose
    /// resolutions start at `start`. The frames are borrowed where they are, not copied.
    func appendFrameLines(_ frames: [CrashReport.Frame], _ range: Range<Int>, resolutionsFrom start: Int, columns: inout FrameColumns,
                          to out: inout TextOutput) {
        frames.withUnsafeBufferPointer { frames in
            resolutions.withUnsafeBufferPointer { resolutions in
                for position in range where position < frames.count && start + position < resolutions.count {
                    appendFrameLines(frames, position, resolutions[start + position], columns: &columns, to: &out)
                }
            }
        }
    }

    /// Copies the original text, replacing each frame's line with its symbolicated lines.
    private func renderEditing(_ text: String, into out: inout TextOutput) {
        var text = text
        text.withUTF8 { bytes in
            // Line boundaries: line n runs from starts[n] to the "\n" before starts[n + 1].
            var starts = [0]
            starts.reserveCapacity(bytes.count / 40)
            for position in bytes.indices where bytes[position] == 0x0a { starts.append(position + 1) }
            let lineCount = starts.count
            func line(_ number: Int) -> UnsafeBufferPointer<UInt8> {
                let end = number + 1 < lineCount ? starts[number + 1] - 1 : bytes.count
                return UnsafeBufferPointer(rebasing: bytes[starts[number] ..< end])
            }
            // Replacements sorted by line (frames are listed in text order, so this is nearly sorted
            // already), naming frames by position so that none is copied.
            var replacements: [Replacement] = []
            replacements.reserveCapacity(resolutions.count)
            for (thread, source) in report.threads.enumerated() {
                source.frames.withUnsafeBufferPointer { frames in
                    for position in frames.indices {
                        if let number = frames[position].textLine { replacements.append(Replacement(line: number, thread: thread, frame: position)) }
                    }
                }
            }
            var removed = 0 ..< 0
            if let backtrace = report.lastExceptionBacktrace, let first = backtrace.first?.textLine, first < lineCount,
               line(first).drop(while: { $0 == 0x20 || $0 == 0x09 }).first == UInt8(ascii: "(") {
                // The compact "(0x… 0x…)" form becomes numbered frames, as symbolicatecrash writes it.
                var end = first
                while end < lineCount - 1, !line(end).contains(UInt8(ascii: ")")) { end += 1 }
                removed = first + 1 ..< end + 1
                replacements.append(Replacement(line: first, thread: -1, frame: -1))
            } else if let backtrace = report.lastExceptionBacktrace {
                for position in backtrace.indices {
                    if let number = backtrace[position].textLine { replacements.append(Replacement(line: number, thread: -1, frame: position)) }
                }
            }
            if !replacements.isSorted(by: { $0.line < $1.line }) { replacements.sort { $0.line < $1.line } }
            var columns = FrameColumns(digits: addressDigits, imageCount: report.images.count)
            out.reserve(bytes.count + replacements.count * 96)
            // Lines between replacements are copied as one run, line breaks included. A line that
            // holds several frames (never in a real report) is replaced by the first.
            var cursor = 0
            var next = 0
            while next < replacements.count {
                let replacement = replacements[next]
                next += 1
                guard replacement.line >= cursor && replacement.line < lineCount else { continue }
                out.append(UnsafeBufferPointer(rebasing: bytes[starts[cursor] ..< starts[replacement.line]]))
                cursor = replacement.line + 1
                // The rest of a compact backtrace goes with its first line.
                if !removed.isEmpty, cursor == removed.lowerBound { cursor = removed.upperBound }
                if replacement.thread >= 0 {
                    // A thread's frames are on consecutive lines: the run is written in one call
                    // (one access to the thread's frames, not one per frame).
                    var last = replacement.frame
                    while next < replacements.count, replacements[next].thread == replacement.thread, replacements[next].frame == last + 1,
                          replacements[next].line == cursor, cursor < lineCount {
                        last += 1
                        next += 1
                        cursor += 1
                        if !removed.isEmpty, cursor == removed.lowerBound { cursor = removed.upperBound }
                    }
                    appendFrameLines(report.threads[replacement.thread].frames, replacement.frame ..< last + 1,
                                     resolutionsFrom: threadStarts[replacement.thread], columns: &columns, to: &out)
                } else if let backtrace = report.lastExceptionBacktrace {
                    let range = replacement.frame >= 0 ? replacement.frame ..< replacement.frame + 1 : 0 ..< backtrace.count
                    appendFrameLines(backtrace, range, resolutionsFrom: backtraceStart, columns: &columns, to: &out)
                }
            }
            if cursor < lineCount {
                out.append(UnsafeBufferPointer(rebasing: bytes[starts[cursor]...]))
            } else if out.last == UInt8(ascii: "\n") {
                // The text ended on a replaced line without a line break of its own.
                out.removeLast()
            }
        }
    }

    private func renderFromModel(into out: inout TextOutput) {
        var columns = FrameColumns(digits: addressDigits, imageCount: report.images.count)
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            out.append(string: key)
            out.append(":")
            out.appendSpaces(Swift.max(1, 21 - key.utf8.count - 1))
            out.append(string: value)
            out.append("\n")
        }
        func line(_ text: String = "") {
            out.append(string: text)
            out.append("\n")
        }
        field("Incident Identifier", report.incidentIdentifier)
        field("Hardware Model", report.hardwareModel)
        field("Process", report.processName.map { name in report.processID.map { "\(name) [\($0)]" } ?? name })
        field("Path", report.processPath)
        field("Identifier", report.bundleIdentifier)
        field("Version", report.version.map { version in report.build.map { "\(version) (\($0))" } ?? version })
        field("Code Type", report.codeType)
        line()
        field("Date/Time", report.date)
        field("OS Version", report.osVersion)
        field("Report Version", report.reportVersion ?? "104")
        line()
        if let exception = report.exception {
            if let type = exception.type {
                line("Exception Type:  " + type + (exception.signal.map { " (\($0))" } ?? ""))
            }
            if let subtype = exception.subtype { line("Exception Subtype: " + subtype) }
            if let codes = exception.codes { line("Exception Codes: " + codes) }
            if let note = exception.note { line("Exception Note:  " + note) }
        }
        if let termination = report.terminationReason { line("Termination Reason: " + termination) }
        line()
        if let crashed = report.crashedThread ?? report.threads.first(where: \.crashed)?.number {
            line("Triggered by Thread:  \(crashed)")
            line()
        }
        if let info = report.applicationSpecificInformation {
            line("Application Specific Information:")
            line(info)
            line()
        }
        if let backtrace = report.lastExceptionBacktrace {
            line("Last Exception Backtrace:")
            appendFrameLines(backtrace, backtrace.indices, resolutionsFrom: backtraceStart, columns: &columns, to: &out)
            line()
        }
        for (index, thread) in report.threads.enumerated() {
            if let name = thread.name ?? thread.queue.map({ "Dispatch queue: \($0)" }) {
                line("Thread \(thread.number) name:   \(name)")
            }
            line("Thread \(thread.number)\(thread.crashed ? " Crashed" : ""):")
            appendFrameLines(thread.frames, thread.frames.indices, resolutionsFrom: threadStarts[index], columns: &columns, to: &out)
            line()
        }
        line()
        line("Binary Images:")
        // Written piece by piece (a report lists hundreds of images): "0x…" addresses right-aligned
        // in 18 columns, the UUID as 32 lowercase hex digits.
        for image in report.images {
            let startDigits = Swift.max(1, (64 - image.loadAddress.leadingZeroBitCount + 3) / 4)
            out.appendSpaces(Swift.max(0, 16 - startDigits))
            out.append("0x")
            out.appendHex(image.loadAddress, digits: 0)
            out.append(" - ")
            if let end = image.endAddress {
                out.appendSpaces(Swift.max(0, 16 - Swift.max(1, (64 - end.leadingZeroBitCount + 3) / 4)))
                out.append("0x")
                out.appendHex(end, digits: 0)
            } else {
                out.appendSpaces(15)
                out.append("???")
            }
            out.append(" ")
            out.append(string: image.name)
            out.append(" ")
            out.append(string: image.architecture ?? "")
            out.append("  <")
            if let uuid = image.uuid {
                withUnsafeBytes(of: uuid.uuid) { bytes in
                    for byte in bytes { out.appendHex(UInt64(byte), digits: 2) }
                }
            } else {
                out.append("???")
            }
            out.append("> ")
            out.append(string: image.path ?? "")
            out.append("\n")
        }
        line()
        line("EOF")
    }
}
