// Fuzzing only: compiled into the AppleFormats module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AppleFormatsFuzz {
    /// Apple's tab-separated device upload file; the file written for what was read must read back the same.
    static func devicesTSV(_ bytes: UnsafeRawBufferPointer) {
        let entries: [DeviceListEntry]
        do { entries = try DeviceListTSV.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            fuzzConsume(error.description)
            return
        }
        let written = DeviceListTSV.write(entries.map { ($0.identifier, $0.name, $0.platform ?? .ios) })
        do {
            let again = try DeviceListTSV.parse(written)
            fuzzCheck(again.map(\.identifier) == entries.map(\.identifier), "device identifiers change when the written list is read back")
        } catch {
            fuzzCheck(false, "the device list written for a parsed one cannot be read back: \(error)")
        }
    }

    /// The `.deviceids` property list.
    static func devicesPlist(_ bytes: UnsafeRawBufferPointer) {
        fuzzConsume(DeviceListPlist.looksLikePlist(bytes))
        do { fuzzConsume(try DeviceListPlist.parse(Data(bytes))) } catch { fuzzConsume(error.description) }
    }

    /// One UDID (and model code or family name) as typed by a person or pasted from a file: a valid
    /// UDID normalises to a form that reads back as itself; anything else is refused with a reason.
    static func udid(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        // The other device words a person types next to a UDID.
        fuzzConsume((DeviceFamily(modelCode: text), DeviceFamily(name: text)))
        let identifier: DeviceIdentifier
        do { identifier = try DeviceIdentifier(text) } catch {
            fuzzConsume(error.description)
            return
        }
        do {
            let again = try DeviceIdentifier(identifier.value)
            fuzzCheck(again == identifier && again.form == identifier.form, "the normalised UDID \(identifier.value) reads back as \(again.value)")
        } catch {
            fuzzCheck(false, "the normalised UDID \(identifier.value) is refused: \(error)")
        }
        fuzzCheck(identifier.value.utf8.count == [DeviceIdentifier.Form.legacy: 40, .modern: 25, .uuid: 36][identifier.form],
                  "a \(identifier.form) UDID has \(identifier.value.utf8.count) characters")
    }
}
