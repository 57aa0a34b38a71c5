#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Links in the plugin's work directory through which the build system notices changes to the
/// embedded files and folders, including ones that appeared after SwiftPM last planned the build.
///
/// SwiftPM asks a build-tool plugin for its commands only when it plans a build (when Package.swift
/// or a target's folder changes), so a command's inputs are fixed then. Declaring the embedded
/// files themselves would miss files added later, and removing one would stop the build with
/// "missing inputs" until the next plan. Instead the plugin declares numbered slots, and this
/// tool, each time it runs, points them at what it embeds:
///
/// - `file-N` is a hard link to the N-th file. It shares the file's inode, so an edit in place
///   changes the slot's date and size; a removed file lives on in its slot until relinked.
/// - `folder-N` is a symbolic link to the N-th folder, whose date changes when an entry is added,
///   removed or renamed (editors that save by renaming included).
///
/// Spare slots point at placeholders (an empty file, an empty folder). Deleting a
/// whole folder leaves its slot dangling, which SwiftPM reports as a missing input of this command
/// until it plans the build again (touch Package.swift).
struct WatchSlots {
    /// The folder holding the slots (in the plugin's work directory).
    var folder: String
    /// How many `file-N` slots the plugin declared.
    var fileSlots: Int
    /// How many `folder-N` slots the plugin declared.
    var folderSlots: Int

    var placeholder: String { folder + "/placeholder" }
    var placeholderFolder: String { folder + "/placeholder-folder" }

    /// Points the slots at `files` and `folders` (absolute paths). A slot that already points at
    /// the right thing is left alone, so a build without changes changes nothing. Returns how many
    /// files and folders have no slot (more than the spares, or no hard link possible): changes to
    /// those are noticed only after SwiftPM plans the build again.
    func update(files: [String], folders: [String]) -> Int {
        var unwatched = max(0, files.count - fileSlots) + max(0, folders.count - folderSlots)
        if !Self.exists(placeholder) {
            let descriptor = open(placeholder, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if descriptor >= 0 { close(descriptor) }
        }
        mkdir(placeholderFolder, 0o755)
        for index in 0 ..< fileSlots {
            let target = index < files.count ? files[index] : placeholder
            let slot = folder + "/file-\(index)"
            guard !Self.sameInode(slot, target) else { continue }
            // Made under a temporary name and renamed over the slot, so the slot never disappears.
            let temporary = folder + "/.new-file-\(index)"
            unlink(temporary)
            if link(target, temporary) == 0 {
                rename(temporary, slot)
            } else if index < files.count {
                unwatched += 1
            }
        }
        for index in 0 ..< folderSlots {
            let target = index < folders.count ? folders[index] : placeholderFolder
            let slot = folder + "/folder-\(index)"
            guard Self.symbolicLinkTarget(slot) != target else { continue }
            let temporary = folder + "/.new-folder-\(index)"
            unlink(temporary)
            if symlink(target, temporary) == 0 {
                rename(temporary, slot)
            } else if index < folders.count {
                unwatched += 1
            }
        }
        return unwatched
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether both paths name the same inode (following symbolic links).
    static func sameInode(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Where a symbolic link points, or nil when `path` is not one.
    static func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
