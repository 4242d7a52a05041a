import CXlsxWriter
import ReconCore

/// The Summary sheet, the one the workbook opens on. Top to bottom:
///
/// 1. the reconciler's totals per currency (`summary.csv`'s rows, readable headers, filterable), then one line per
///    currency saying whether the books close (``BooksClose``);
/// 2. the findings by kind: new, open and resolved (as counted for the report, never here);
/// 3. the check blocks of ``SummaryChecks``: the same totals as formulas over the detail sheets, then over the
///    Connected accounts sheet;
/// 4. charts, two abreast: the Destination Platform Fee per day, one chart per currency (each on its own axis:
///    two currencies never share one), and the findings by kind;
/// 5. the table those charts read: the Destination Platform Fee per day, one column per currency.
///
/// The sheet is added first, while it is still empty, and written last, when every sheet its formulas and charts
/// refer to exists; it is one sheet whatever ``WriteOptions/maxRowsPerSheet`` says (a few rows per currency,
/// finding kind and day: far from Excel's limit).
struct SummarySheet {
    static let name = "Summary"

    let report: ReconciliationReport
    /// The check blocks, each a note and one row of formulas per currency.
    let checks: [(note: String, rows: [(label: String, cells: [FormulaCell?])])]
    /// The time zone the per-day series counts days in (the range's).
    let timeZone: String

    /// The first column of the findings' counts: the kind's text spills over the empty cells left of it.
    static let findingCountColumn = 3

    /// Rows a chart takes, at the default row height, and its height in pixels.
    static let chartRows = 17
    static let chartHeight = 320.0
}

extension WorkbookWriter {
    /// Fills the reserved Summary `sheet`, top to bottom, and makes it the sheet the workbook opens on.
    mutating func write(_ summary: SummarySheet, on sheet: UnsafeMutablePointer<lxw_worksheet>) throws(ReportError) {
        let name = SummarySheet.name
        let table = ReportTable.summary(summary.report.summary)
        let widths = Self.columnWidths(table)
        // 1. Totals per currency: written as a whole sheet's table is, header frozen and filterable.
        try writeWhole(table, on: sheet)
        worksheet_activate(sheet)
        var row = table.rowCount + 2

        // 1b. Whether the books close, one line per currency (the Balance sheet shows why).
        let closing = BooksClose.summaryLines(summary.report.balance)
        if !closing.isEmpty {
            try writeBand([("The books close (see the Balance sheet)", .text)], on: sheet, row: row, name: name)
            for line in closing {
                row += 1
                try writeCell(.text(line), sheet: sheet, row: row, column: 0)
            }
            row += 2
        }

        // 2. Findings by kind and status.
        let countColumn = SummarySheet.findingCountColumn
        var band: [(String, ColumnKind)] = Array(repeating: ("", .text), count: countColumn + 3)
        band[0] = ("Findings", .text)
        band[countColumn] = ("New", .count)
        band[countColumn + 1] = ("Open", .count)
        band[countColumn + 2] = ("Resolved", .count)
        try writeBand(band, on: sheet, row: row, name: name)
        let findings = summary.report.findingCounts
        let firstFinding = row + 1
        if findings.isEmpty {
            row += 1
            try checked(
                worksheet_write_string(sheet, lxw_row_t(row), 0, "No findings: nothing to follow up.", noteFormat),
                sheet: name)
        }
        for finding in findings {
            row += 1
            try writeCell(.text(finding.kind), sheet: sheet, row: row, column: 0)
            try writeCell(.count(finding.new), sheet: sheet, row: row, column: countColumn)
            try writeCell(.count(finding.open), sheet: sheet, row: row, column: countColumn + 1)
            try writeCell(.count(finding.resolved), sheet: sheet, row: row, column: countColumn + 2)
        }
        let findingRows = findings.isEmpty ? nil : (first: firstFinding, last: row)

        // 3. The check blocks.
        for block in summary.checks {
            row += 2
            try checked(worksheet_write_string(sheet, lxw_row_t(row), 0, block.note, noteFormat), sheet: name)
            for check in block.rows {
                row += 1
                try writeFormulas(check, on: sheet, row: row, name: name)
            }
        }

        // 4. Charts, two abreast across the totals' width, then the per-day table they chart.
        let series = DailySeries(summary.report.dailyPlatformFees)
        let chartable = series.currencies.enumerated().compactMap { column, currency in
            CellText.exponent(of: currency).map { (column: column, currency: currency, exponent: $0) }
        }
        let chartCount = chartable.count + (findingRows == nil ? 0 : 1)
        let chartsTop = row + 2
        let tableTitle = chartsTop + (chartCount + 1) / 2 * SummarySheet.chartRows + (chartCount > 0 ? 1 : 0)
        let firstDay = tableTitle + 2
        let lastDay = firstDay + series.days.count - 1
        var charts: [ChartSpec] = chartable.map { entry in
            ChartSpec(
                type: LXW_CHART_COLUMN, title: "Destination platform fee per day, \(entry.currency.rawValue)",
                categories: (firstDay, lastDay, 0), series: [(entry.currency.rawValue, entry.column + 1, 0x4472C4)],
                valueAxis: entry.currency.rawValue, valueFormat: Self.axisNumberFormat(exponent: entry.exponent),
                rotateCategories: series.days.count > 7)
        }
        if let findingRows {
            charts.append(
                ChartSpec(
                    type: LXW_CHART_BAR_STACKED, title: "Findings by kind",
                    categories: (findingRows.first, findingRows.last, 0),
                    series: [
                        ("New", countColumn, 0xED7D31), ("Open", countColumn + 1, 0xA5A5A5),
                        ("Resolved", countColumn + 2, 0x70AD47),
                    ],
                    valueAxis: "", valueFormat: "#,##0", rotateCategories: false))
        }
        if !series.days.isEmpty {
            let zone = summary.timeZone == "GMT" ? "UTC" : summary.timeZone
            try checked(
                worksheet_write_string(
                    sheet, lxw_row_t(tableTitle), 0, "Destination platform fee per day (days in \(zone))", titleFormat),
                sheet: name)
            try writeBand(
                [("Day", .text)] + series.currencies.map { ($0.rawValue, .amount) }, on: sheet, row: tableTitle + 1,
                name: name)
            for (dayIndex, day) in series.days.enumerated() {
                try writeCell(.text(day), sheet: sheet, row: firstDay + dayIndex, column: 0)
                for (column, currency) in series.currencies.enumerated() {
                    let value = series.fees[column][dayIndex]
                    try writeCell(.amount(value, currency), sheet: sheet, row: firstDay + dayIndex, column: column + 1)
                }
            }
        }
        // Printed: the tables and the first row of charts on page 1, then two rows of charts a page, then the
        // per-day table, so no chart is cut in two.
        var breaks: [lxw_row_t] = stride(from: 1, to: (chartCount + 1) / 2, by: 2).map {
            lxw_row_t(chartsTop + $0 * SummarySheet.chartRows)
        }
        if !series.days.isEmpty { breaks.append(lxw_row_t(tableTitle)) }
        breaks.append(0)
        breaks.withUnsafeMutableBufferPointer { buffer in
            check(worksheet_set_h_pagebreaks(sheet, buffer.baseAddress), "set the page breaks of '\(name)'")
        }
        let totalWidth = widths.reduce(0.0) { $0 + Self.pixels($1) }
        let half = (totalWidth / 2).rounded(.down)
        for (index, chart) in charts.enumerated() {
            try insert(
                chart, on: sheet, row: chartsTop + index / 2 * SummarySheet.chartRows,
                xOffset: Int32(index % 2) * Int32(half), width: half, name: name)
        }
    }

    /// A row of bold header cells (empty texts still get the band's colour).
    private mutating func writeBand(
        _ labels: [(text: String, kind: ColumnKind)], on sheet: UnsafeMutablePointer<lxw_worksheet>, row: Int,
        name: String
    ) throws(ReportError) {
        for (column, label) in labels.enumerated() {
            let format = headerFormat(label.kind)
            let result =
                label.text.isEmpty
                ? worksheet_write_blank(sheet, lxw_row_t(row), lxw_col_t(column), format)
                : worksheet_write_string(sheet, lxw_row_t(row), lxw_col_t(column), label.text, format)
            try checked(result, sheet: name)
        }
    }

    /// One check row: its label, then each formula with its cached result.
    private mutating func writeFormulas(
        _ check: (label: String, cells: [FormulaCell?]), on sheet: UnsafeMutablePointer<lxw_worksheet>, row: Int,
        name: String
    ) throws(ReportError) {
        try writeCell(.text(check.label), sheet: sheet, row: row, column: 0)
        for (column, formulaCell) in check.cells.enumerated() {
            guard let formulaCell else { continue }
            let cached: Double
            let format: UnsafeMutablePointer<lxw_format>
            switch formulaCell.cachedResult {
            case .amount(let minorUnits, let currency):
                guard let exponent = CellText.exponent(of: currency) else { continue }
                cached = Double(minorUnits) / Self.powersOfTen[exponent]
                format = try amountFormat(exponent: exponent)
            case .count(let count):
                cached = Double(count)
                format = countFormat
            default:
                continue
            }
            try checked(
                worksheet_write_formula_num(
                    sheet, lxw_row_t(row), lxw_col_t(column + 1), formulaCell.formula, format, cached),
                sheet: name)
        }
    }

    // MARK: Charts

    /// A chart of one or more columns of the Summary by its day or kind column.
    fileprivate struct ChartSpec {
        let type: lxw_chart_type
        let title: String
        /// First and last row, and the column, of the category labels.
        let categories: (first: Int, last: Int, column: Int)
        /// Each series' name, value column (same rows as the categories) and colour.
        let series: [(name: String, column: Int, color: lxw_color_t)]
        /// The value axis's title (empty: none).
        let valueAxis: String
        let valueFormat: String
        /// Dates turned 45° so a month of them fits under the chart.
        let rotateCategories: Bool
    }

    /// Inserts `spec` at `row`, `xOffset` pixels right of column A, `width` pixels wide (margins included).
    private mutating func insert(
        _ spec: ChartSpec, on sheet: UnsafeMutablePointer<lxw_worksheet>, row: Int, xOffset: Int32, width: Double,
        name: String
    ) throws(ReportError) {
        let chart = try workbook.addChart(type: spec.type)
        let first = lxw_row_t(spec.categories.first)
        let last = lxw_row_t(spec.categories.last)
        let categoryColumn = lxw_col_t(spec.categories.column)
        for entry in spec.series {
            guard let series = chart_add_series(chart, nil, nil) else {
                throw .workbook(path: workbook.path, operation: "add chart series", reason: "out of memory")
            }
            chart_series_set_categories(series, name, first, categoryColumn, last, categoryColumn)
            chart_series_set_values(series, name, first, lxw_col_t(entry.column), last, lxw_col_t(entry.column))
            chart_series_set_name(series, entry.name)
            var fill = lxw_chart_fill(color: entry.color, none: 0, transparency: 0)
            chart_series_set_fill(series, &fill)
        }
        chart_title_set_name(chart, spec.title)
        var titleFont = lxw_chart_font()
        titleFont.size = 11
        titleFont.bold = 1
        chart_title_set_name_font(chart, &titleFont)
        chart_legend_set_position(
            chart, UInt8((spec.series.count > 1 ? LXW_CHART_LEGEND_BOTTOM : LXW_CHART_LEGEND_NONE).rawValue))
        chart_set_series_gap(chart, 50)
        if !spec.valueAxis.isEmpty { chart_axis_set_name(chart.pointee.y_axis, spec.valueAxis) }
        chart_axis_set_num_format(chart.pointee.y_axis, spec.valueFormat)
        var labelFont = lxw_chart_font()
        labelFont.size = 8
        if spec.rotateCategories { labelFont.rotation = -45 }
        chart_axis_set_num_font(chart.pointee.x_axis, &labelFont)
        // Low labels on the category axis: negative bars must not run over them.
        chart_axis_set_label_position(chart.pointee.x_axis, UInt8(LXW_CHART_AXIS_LABEL_POSITION_LOW.rawValue))
        var options = lxw_chart_options()
        options.x_offset = xOffset + 4
        options.y_offset = 4
        options.x_scale = max(width - 8, 320) / 480
        options.y_scale = SummarySheet.chartHeight / 288
        try checked(
            worksheet_insert_chart_opt(sheet, lxw_row_t(row), 0, chart, &options), sheet: name)
    }

    /// A chart axis's number format: the currency's decimals, thousands grouped.
    static func axisNumberFormat(exponent: Int) -> String {
        exponent == 0 ? "#,##0" : "#,##0." + String(repeating: "0", count: exponent)
    }

    /// A column's width in pixels for a width in characters (Excel's rule for its default font).
    static func pixels(_ characters: Double) -> Double {
        (characters * 7 + 5).rounded(.down)
    }
}

/// The per-day rows regrouped for the table: days down, currencies across. Nothing is added up here.
private struct DailySeries {
    var days: [String] = []
    var currencies: [Currency] = []
    /// `fees[currency index][day index]`, minor units.
    var fees: [[Int64]] = []

    init(_ rows: [DailyPlatformFeeRow]) {
        var dayIndex: [String: Int] = [:]
        var currencyIndex: [Currency: Int] = [:]
        for row in rows {
            if dayIndex[row.day] == nil {
                dayIndex[row.day] = days.count
                days.append(row.day)
            }
            if currencyIndex[row.currency] == nil {
                currencyIndex[row.currency] = currencies.count
                currencies.append(row.currency)
            }
        }
        fees = Array(repeating: Array(repeating: 0, count: days.count), count: currencies.count)
        for row in rows {
            guard let day = dayIndex[row.day], let currency = currencyIndex[row.currency] else { continue }
            fees[currency][day] = row.destinationPlatformFee
        }
    }
}
