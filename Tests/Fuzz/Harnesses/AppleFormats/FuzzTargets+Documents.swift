// Fuzzing only: compiled into the AppleFormats module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AppleFormatsFuzz {
    /// An XML or binary property list; what was read must also survive being written and read again.
    static func propertyList(_ bytes: UnsafeRawBufferPointer) {
        let value: PlistValue
        do { value = try PlistValue(parsing: Array(bytes)) } catch {
            if case let .nestedTooDeep(depth, limit) = error.kind {
                fuzzCheck(depth > limit && limit == PlistValue.maximumNesting, "a nesting error names depth \(depth) within the limit \(limit)")
            }
            fuzzConsume(error.description)
            return
        }
        fuzzCheck(plistDepth(value) <= PlistValue.maximumNesting, "a property list nested \(plistDepth(value)) deep was read")
        fuzzConsume(value.displayText)
        do { fuzzConsume(try BundleInfo(plist: value)) } catch { fuzzConsume(error.description) }
        do {
            let xml = try value.xmlBytes()
            let fromXML = try PlistValue(parsing: xml)
            fuzzCheck(try fromXML.xmlBytes() == xml, "the XML written for a property list reads back as a different one")
            let binary = try value.binaryBytes()
            let fromBinary = try PlistValue(parsing: binary)
            fuzzCheck(try fromBinary.binaryBytes() == binary, "the binary plist written for a property list reads back as a different one")
        } catch {
            fuzzCheck(false, "a property list that was read cannot be written and read back: \(error)")
        }
    }

    /// How deep arrays and dictionaries nest in `value`, measured without recursion.
    static func plistDepth(_ value: PlistValue) -> Int {
        var deepest = 0
        var pending: [(PlistValue, Int)] = [(value, 0)]
        while let (next, depth) = pending.popLast() {
            switch next {
            case let .array(elements):
                deepest = max(deepest, depth + 1)
                pending += elements.map { ($0, depth + 1) }
            case let .dictionary(entries):
                deepest = max(deepest, depth + 1)
                pending += entries.values.map { ($0, depth + 1) }
            default: break
            }
        }
        return deepest
    }

    /// How deep elements nest under `element` (itself level 1), measured without recursion.
    static func derDepth(_ element: ASN1Element) -> Int {
        var deepest = 0
        var pending: [(ASN1Element, Int)] = [(element, 1)]
        while let (next, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            pending += next.children.map { ($0, depth + 1) }
        }
        return deepest
    }

    /// DER/BER: the generic element tree with every value accessor, and the typed readers built on it.
    static func der(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        do {
            let element = try ASN1Element(parsing: array)
            fuzzCheck(derDepth(element) <= BERParser.Limits().maxDepth, "ASN.1 elements nested \(derDepth(element)) deep were read")
            visit(element)
        } catch {
            fuzzConsume(error.description)
        }
        do { fuzzConsume(try BERParser(bytes: array).parsePrefix()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try PlistValue(derBytes: array).displayText) } catch { fuzzConsume(error.description) }
        do { describe(try Certificate(der: array)) } catch { fuzzConsume(error.description) }
        do {
            let signed = try CMSSignedData(bytes: array)
            fuzzConsume((signed.contentType, signed.content, signed.usesIndefiniteLengths))
            signed.certificates.forEach(describe)
            signed.signer.map(describe)
        } catch {
            fuzzConsume(error.description)
        }
    }

    static func visit(_ element: ASN1Element) {
        do { fuzzConsume(try element.boolean()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try element.integer()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try element.integerBytes()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try element.objectIdentifier()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try element.string()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try element.octetString()) } catch { fuzzConsume(error.description) }
        do { fuzzConsume(try element.time()) } catch { fuzzConsume(error.description) }
        if element.tag == .sequence {
            do { fuzzConsume(try DistinguishedName(element: element).description) } catch { fuzzConsume(error.description) }
            do { describe(try Certificate(element: element)) } catch { fuzzConsume(error.description) }
        }
        do { fuzzConsume(try PlistValue(der: element)) } catch { fuzzConsume(error.description) }
        element.children.forEach(visit)
    }

    static func describe(_ certificate: Certificate) {
        fuzzConsume((certificate.subject.description, certificate.issuer.commonName, certificate.serialNumberHex,
                     certificate.isValid(at: Date(timeIntervalSince1970: 1_700_000_000))))
    }

    /// A provisioning profile: CMS envelope, plist payload, certificates and the DER profile inside.
    static func profile(_ bytes: UnsafeRawBufferPointer) {
        let profile: ProvisioningProfile
        do { profile = try ProvisioningProfile(bytes: Array(bytes)) } catch {
            fuzzConsume(error.description)
            return
        }
        fuzzConsume((profile.type, profile.applicationIdentifier, profile.getTaskAllow, profile.teamIdentifier))
        fuzzConsume(profile.isExpired(at: Date(timeIntervalSince1970: 1_700_000_000)))
        fuzzConsume(profile.covers(bundleID: "com.example.beta"))
        fuzzConsume(profile.provisionedDeviceIdentifiers)
        if let device = try? DeviceIdentifier("00008030-001A2B3C4D5E6F70") { fuzzConsume(profile.includesDevice(device)) }
        profile.developerCertificates.forEach(describe)
        fuzzConsume(profile.entitlements.mapValues(\.displayText))
    }

    /// A crash report in any format betactl reads (.crash text, .ips JSON, .ips with a text body).
    static func crashReport(_ bytes: UnsafeRawBufferPointer) {
        let report: CrashReport
        do { report = try CrashReport(bytes: Array(bytes)) } catch {
            fuzzConsume(error.description)
            return
        }
        for thread in report.threads {
            for frame in thread.frames { fuzzConsume(report.image(for: frame)) }
        }
        for frame in report.lastExceptionBacktrace ?? [] { fuzzConsume(report.image(for: frame)) }
        for image in report.images { fuzzConsume(image.contains(image.loadAddress)) }
        do { fuzzConsume(try JSONEncoder().encode(report)) } catch { fuzzConsume(error) }
    }
}
