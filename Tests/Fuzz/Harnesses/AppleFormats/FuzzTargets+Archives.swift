// Fuzzing only: compiled into the AppleFormats module by Tests/Fuzz/fuzz.sh, never by SwiftPM.

extension AppleFormatsFuzz {
    // Extraction work per input is bounded so that one legitimately large entry does not slow every run.
    static let zipExtractionBudget: UInt64 = 16 << 20

    /// A zip archive (.ipa, zipped .xcarchive or .dSYM): central directory, names, limits and extraction.
    static func zipArchive(_ bytes: UnsafeRawBufferPointer) {
        let archive: ZipArchive
        do { archive = try ZipArchive(source: ZipMemorySource(Array(bytes))) } catch {
            fuzzConsume(error.description)
            return
        }
        var budget = zipExtractionBudget
        for entry in archive.entries {
            fuzzCheck(archive.entry(named: entry.name) != nil, "an entry cannot be found by its own name")
            do { try ZipEntryName.validate(entry.name) } catch { fuzzCheck(false, "an archive was accepted with an unsafe name: \(error)") }
            fuzzConsume((entry.isDirectory, entry.isSymbolicLink, entry.isExecutable))
            guard entry.uncompressedSize <= budget else { continue }
            budget -= entry.uncompressedSize
            do {
                let contents = try archive.contents(of: entry, maxSize: 4 << 20)
                fuzzCheck(UInt64(contents.count) == entry.uncompressedSize, "an entry extracted to a size other than the one declared")
            } catch {
                fuzzConsume(error.description)
            }
        }
    }

    /// A PNG, standard or Apple's CgBI: the browser conversion, and decoding what it wrote gives the same pixels.
    static func png(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        fuzzConsume(PNGImage.isCgBI(array))
        do { fuzzConsume(try PNGImage.browserCompatiblePNG(array)) } catch { fuzzConsume(error.description) }
        let image: PNGImage
        do { image = try PNGImage(bytes: array) } catch {
            fuzzConsume(error.description)
            return
        }
        fuzzCheck(image.rgba.count == image.width * image.height * 4, "the decoded pixels do not match the image size")
        do {
            let again = try PNGImage(bytes: try image.encoded())
            fuzzCheck(again.width == image.width && again.height == image.height && again.rgba == image.rgba,
                      "the PNG written for a decoded image decodes to different pixels")
        } catch {
            fuzzCheck(false, "a decoded image cannot be written and decoded again: \(error)")
        }
    }
}
