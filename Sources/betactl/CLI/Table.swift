/// A plain-text table with a header row and left-aligned, space-padded columns. Cells are one
/// line each: a newline, tab or other control character in a value is escaped
/// (`TerminalText.cell`), so a value cannot forge rows or send control sequences.
struct Table {
    var headers: [String]
    var rows: [[String]] = []

    func render(style: Style) -> String {
        let rows = self.rows.map { $0.map(TerminalText.cell) }
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                out += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            return out
        }
        var out = style.bold(line(headers)) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }
}
