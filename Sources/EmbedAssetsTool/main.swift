// EmbedAssetsTool: the build tool of the EmbedAssets plugin (below). It may import the Foundation
// essentials and PosixIO only.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO
// The build tool the EmbedAssets plugin runs: it reads a target's EmbedAssets.txt, walks what it
// lists and writes the Swift source that embeds those files (see AssetList, AssetSourceWriter).
// It reads the list itself on every run, so the output always matches the files on disk even when
// SwiftPM reuses a build plan made before files were added.
//
// Usage: EmbedAssetsTool --list EmbedAssets.txt --root PACKAGE_ROOT --output FILE.swift
//                        [--watch DIR --file-slots N --folder-slots N]   (the plugin's slots, see WatchSlots)

let usage = "usage: EmbedAssetsTool --list EmbedAssets.txt --root PACKAGE_ROOT --output FILE.swift [--watch DIR --file-slots N --folder-slots N]"

func fail(_ message: String, status: Int32) -> Never {
    let line = "EmbedAssetsTool: error: " + message + "\n"
    try? FileDescriptor(rawValue: 2).writeAll(Array(line.utf8))
    CurrentProcess.exit(status)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard ["--list", "--root", "--output", "--watch", "--file-slots", "--folder-slots"].contains(argument) else { fail("unknown argument \(argument); \(usage)", status: 64) }
    guard let value = arguments.popFirst() else { fail("\(argument) needs a value; \(usage)", status: 64) }
    options[argument] = value
}
guard let listPath = options["--list"], let rootOption = options["--root"], let output = options["--output"] else {
    fail("--list, --root and --output are all required; \(usage)", status: 64)
}
guard let listData = FileManager.default.contents(atPath: listPath) else {
    fail("cannot read \(listPath); create it with the folders and files to embed, one per line", status: 66)
}
guard let listText = String(validating: Array(listData), as: UTF8.self) else {
    fail("\(listPath) is not UTF-8 text; save it as UTF-8", status: 65)
}

let root = rootOption.hasSuffix("/") ? String(rootOption.dropLast()) : rootOption
var assets: [AssetSourceWriter.Asset] = []
var contents = AssetList.Contents()
do {
    contents = try AssetList(listPath: listPath, root: root).contents(of: listText)
    for path in contents.files {
        guard let data = FileManager.default.contents(atPath: root + "/" + path) else {
            fail("cannot read \(root)/\(path); check that the file is readable", status: 66)
        }
        assets.append(AssetSourceWriter.Asset(path: path, bytes: Array(data)))
    }
} catch {
    fail(error.description, status: 65)
}

let source = Data(AssetSourceWriter.source(for: assets).utf8)
// An unchanged source keeps its date, so the module using it is not compiled again for nothing.
if FileManager.default.contents(atPath: output) != source {
    do {
        try source.write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
        fail("cannot write \(output): \(error)", status: 73)
    }
}

if let folder = options["--watch"] {
    guard let fileSlots = options["--file-slots"].flatMap({ Int($0) }), let folderSlots = options["--folder-slots"].flatMap({ Int($0) }),
          fileSlots >= 0, folderSlots >= 0 else {
        fail("--watch needs --file-slots and --folder-slots counts; \(usage)", status: 64)
    }
    let unwatched = WatchSlots(folder: folder, fileSlots: fileSlots, folderSlots: folderSlots)
        .update(files: contents.files.map { root + "/" + $0 }, folders: contents.folders.map { root + "/" + $0 })
    if unwatched > 0 {
        let note = "EmbedAssetsTool: note: changes to \(unwatched) embedded file(s) or folder(s) are noticed only after SwiftPM plans the build again (touch Package.swift)\n"
        try? FileDescriptor(rawValue: 2).writeAll(Array(note.utf8))
    }
}
