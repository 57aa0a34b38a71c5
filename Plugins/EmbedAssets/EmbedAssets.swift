#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PackagePlugin

/// Embeds folders and files of the package into the target that applies this plugin, as an
/// internal `EmbeddedAssets.files: [String: [UInt8]]` keyed by path relative to the package root
/// (e.g. `Templates/tester.html`, `web/app.css`). The binary then needs no files beside it.
///
/// What to embed is listed in `EmbedAssets.txt` in the target's folder: one path per line,
/// relative to the package root, a folder (embedded whole, recursively) or a single file; blank
/// lines and lines starting with `#` are ignored. Hidden files and folders inside a listed folder
/// (names starting with `.`, such as `.DS_Store`) are skipped. Exclude the list file (and any
/// embedded folder inside the target's folder) from the target's sources:
///
/// ```swift
/// .target(name: "BetaWeb", exclude: ["EmbedAssets.txt"], plugins: ["EmbedAssets"])
/// ```
///
/// Keeping the output current: SwiftPM asks this plugin for its command only when it plans a build
/// (when Package.swift or a target's folder changes), not when a file is added to a folder such
/// as `Templates/` or the list is edited. So the command carries no file list: EmbedAssetsTool
/// reads the list and walks the folders itself whenever it runs, and it runs whenever one of the
/// command's inputs changes: the list, and watch slots in this plugin's work directory that the
/// tool points at every embedded file (hard links: an edit in place shows) and folder (symbolic
/// links: a folder's date changes when an entry is added, removed or renamed). See the tool's
/// WatchSlots. Deleting a whole folder is the one change that needs a new plan (touch
/// Package.swift) before the next build succeeds.
@main
struct EmbedAssets: BuildToolPlugin {
    /// The list file's name, in the target's folder.
    static let listName = "EmbedAssets.txt"
    /// File slots beyond the files present now, for files added before the next plan.
    static let spareFileSlots = 64
    /// Folder slots beyond the folders present now, for folders added before the next plan.
    static let spareFolderSlots = 16

    /// One build command: run EmbedAssetsTool on the target's list.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // Target.directoryURL needs tools version 6.1; the source-module targets have it in 6.0.
        guard let folder = (target as? SwiftSourceModuleTarget)?.directoryURL ?? (target as? ClangSourceModuleTarget)?.directoryURL else {
            throw Problem(description: "\(target.name) is not a source target; apply the EmbedAssets plugin to a Swift target")
        }
        let list = folder.appending(path: Self.listName).path(percentEncoded: false)
        guard let data = FileManager.default.contents(atPath: list) else {
            throw Problem(description: "\(list) is missing: list the folders and files \(target.name) embeds there (one path relative to the package root per line), or remove the EmbedAssets plugin from \(target.name)")
        }
        var root = context.package.directoryURL.path(percentEncoded: false)
        if root.count > 1, root.hasSuffix("/") { root.removeLast() }
        // Problems with the entries are the tool's to report (it runs on every change); here an
        // entry that does not exist just adds no inputs.
        var folders: [String] = [], files: [String] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let entry = line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
            guard let first = entry.first, first != "#" else { continue }
            Self.walk(root + "/" + String(entry), folders: &folders, files: &files, depth: 0)
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift").path(percentEncoded: false)
        var arguments = ["--list", list, "--root", root, "--output", output]
        var inputs = [list]
        let slots = context.pluginWorkDirectoryURL.appending(path: "watch").path(percentEncoded: false)
        let fileSlots = files.count + Self.spareFileSlots, folderSlots = folders.count + Self.spareFolderSlots
        if Self.prepareSlots(slots, fileSlots: fileSlots, folderSlots: folderSlots, probe: list) {
            arguments += ["--watch", slots, "--file-slots", String(fileSlots), "--folder-slots", String(folderSlots)]
            inputs += (0 ..< fileSlots).map { slots + "/file-\($0)" } + (0 ..< folderSlots).map { slots + "/folder-\($0)" }
        } else {
            // No hard links possible (another file system): watch what exists now. Files added
            // later then wait for the next plan, and removing one stops the build until then.
            inputs += folders + files
        }
        return [
            .buildCommand(
                displayName: "Embedding assets into \(target.name)",
                executable: try context.tool(named: "EmbedAssetsTool").url,
                arguments: arguments,
                inputFiles: inputs.map { URL(fileURLWithPath: $0) },
                outputFiles: [URL(fileURLWithPath: output)]
            ),
        ]
    }

    /// Collects `path` as a folder (with its non-hidden files and folders, recursively) or a file.
    static func walk(_ path: String, folders: inout [String], files: inout [String], depth: Int) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            files.append(path)
            return
        }
        folders.append(path)
        // The tool refuses deeper nesting (a symbolic-link loop); stop here too.
        guard depth < 32, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            walk(path + "/" + name, folders: &folders, files: &files, depth: depth + 1)
        }
    }

    /// Makes sure every slot exists (a declared input that is missing stops the build): file slots
    /// as hard links to an empty placeholder file, folder slots as symbolic links to an empty folder,
    /// until the tool points them at the embedded files and folders. False when hard links cannot
    /// be made from this folder to the package's files.
    static func prepareSlots(_ folder: String, fileSlots: Int, folderSlots: Int, probe: String) -> Bool {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let test = folder + "/.probe"
        unlink(test)
        guard link(probe, test) == 0 else { return false }
        unlink(test)
        let placeholder = folder + "/placeholder"
        var status = stat()
        if stat(placeholder, &status) != 0 {
            let descriptor = open(placeholder, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { return false }
            close(descriptor)
        }
        for index in 0 ..< fileSlots where stat(folder + "/file-\(index)", &status) != 0 {
            guard link(placeholder, folder + "/file-\(index)") == 0 else { return false }
        }
        let placeholderFolder = folder + "/placeholder-folder"
        mkdir(placeholderFolder, 0o755)
        for index in 0 ..< folderSlots where stat(folder + "/folder-\(index)", &status) != 0 {
            // A slot left dangling by a deleted folder is pointed back at the placeholder.
            unlink(folder + "/folder-\(index)")
            guard symlink(placeholderFolder, folder + "/folder-\(index)") == 0 else { return false }
        }
        return true
    }

    /// A problem SwiftPM reports as a build error.
    struct Problem: Error, CustomStringConvertible {
        /// The sentence SwiftPM prints.
        var description: String
    }
}
