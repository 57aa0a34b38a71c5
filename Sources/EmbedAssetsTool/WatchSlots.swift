import PosixIO

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
            try? FileDescriptor.open(placeholder, .writeOnly, options: [.create, .truncate], permissions: 0o644).close()
        }
        _ = try? FileSystem.makeDirectory(placeholderFolder, permissions: 0o755)
        for index in 0 ..< fileSlots {
            let target = index < files.count ? files[index] : placeholder
            let slot = folder + "/file-\(index)"
            guard !Self.sameInode(slot, target) else { continue }
            // Made under a temporary name and renamed over the slot, so the slot never disappears.
            let temporary = folder + "/.new-file-\(index)"
            _ = try? FileSystem.removeFile(temporary)
            if (try? FileSystem.makeHardLink(temporary, to: target)) != nil {
                try? FileSystem.rename(temporary, to: slot)
            } else if index < files.count {
                unwatched += 1
            }
        }
        for index in 0 ..< folderSlots {
            let target = index < folders.count ? folders[index] : placeholderFolder
            let slot = folder + "/folder-\(index)"
            guard Self.symbolicLinkTarget(slot) != target else { continue }
            let temporary = folder + "/.new-folder-\(index)"
            _ = try? FileSystem.removeFile(temporary)
            if (try? FileSystem.makeSymbolicLink(temporary, to: target)) != nil {
                try? FileSystem.rename(temporary, to: slot)
            } else if index < folders.count {
                unwatched += 1
            }
        }
        return unwatched
    }

    static func exists(_ path: String) -> Bool {
        ((try? FileSystem.status(path)) ?? nil) != nil
    }

    /// Whether both paths name the same inode (following symbolic links).
    static func sameInode(_ first: String, _ second: String) -> Bool {
        guard let a = (try? FileSystem.status(first)) ?? nil, let b = (try? FileSystem.status(second)) ?? nil else { return false }
        return a.device == b.device && a.inode == b.inode
    }

    /// Where a symbolic link points, or nil when `path` is not one.
    static func symbolicLinkTarget(_ path: String) -> String? {
        try? FileSystem.linkTarget(path)
    }
}
