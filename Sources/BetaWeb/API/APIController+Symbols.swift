#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaJSON

extension APIController {
    /// Symbols: upload dSYM zips, list the archive, list release executables still lacking them.
    var symbolOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/symbols", scope: .read, operationID: "listSymbols", tag: "Symbols",
                         summary: "Archived DWARF slices by UUID and architecture, with the releases they symbolicate.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of symbols.", schema: .ref("SymbolList"))]) { [self] call in
                let home = self.home
                let entries = try await pool.run { try Archive(home: home).symbols() }
                let json = ArchiveJSON.symbols(entries, missing: []).symbols
                func key(_ symbol: ArchiveJSON.SymbolJSON) -> PageKey { PageKey(text: symbol.uuid + "\u{0}" + symbol.arch) }
                let page = try Page(json.sorted { key($0) < key($1) }, request: call.request, key: key)
                var response = try Response.api(AdminJSON.SymbolListJSON(symbols: page.items, nextCursor: page.nextCursor))
                if let link = page.linkHeader(call.request) { response.headers.set("Link", link) }
                return response
            },
            APIOperation(method: .get, path: "/symbols/missing", scope: .read, operationID: "listMissingSymbols", tag: "Symbols",
                         summary: "Executable slices of releases (revoked ones too) whose dSYMs are not archived: their crashes cannot be symbolicated.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of slices without symbols.", schema: .ref("MissingSymbolList"))]) { [self] call in
                let home = self.home
                let missing = try await pool.run { try Archive(home: home).slicesWithoutSymbols() }
                let json = ArchiveJSON.symbols([], missing: missing).missing
                func key(_ item: ArchiveJSON.MissingSymbolJSON) -> PageKey { PageKey(number: item.release, text: item.path + "\u{0}" + item.arch) }
                let page = try Page(json.sorted { key($0) < key($1) }, request: call.request, key: key)
                var response = try Response.api(AdminJSON.MissingSymbolListJSON(missing: page.items, nextCursor: page.nextCursor))
                if let link = page.linkHeader(call.request) { response.headers.set("Link", link) }
                return response
            },
            APIOperation(method: .post, path: "/symbols", scope: .write, operationID: "uploadSymbols", tag: "Symbols",
                         summary: "Archive dSYMs after the fact (for example ones downloaded from Xcode): one or more `dsym` parts, each a zipped .dSYM or .xcarchive. Slices already archived are kept, unless the archived copy is damaged and the upload is intact.",
                         body: .init(mediaType: "multipart/form-data", schema: .ref("SymbolUpload"), description: "The dSYM zips."),
                         outcomes: [.init(status: 200, description: "What was archived.", schema: .ref("SymbolUploadResult"))],
                         bodyLimit: configuration.maxUploadBytes, checksTokenBeforeBody: true) { [self] call in
                try await Response.api(actions.uploadSymbols(call.request, extraFields: []))
            },
        ]
    }
}
