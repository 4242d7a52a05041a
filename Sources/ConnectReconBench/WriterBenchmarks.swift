import Foundation
import History
import ReconCore
import Reports

/// Measurement (c): the workbook streaming a sheet of `rows` platform-fee rows (the report's widest table),
/// through ``ReportStream`` as the reconcile calls it; the stream times its CSV and workbook work apart.
struct XLSXBenchmark {
    var rows: Int
    var folder: URL

    func run() throws -> [Figure] {
        let currencies: [Currency] = [.usd, .eur, .gbp, .jpy, .bhd]
        let styles: [FeeStyle] = [.applicationFee, .transferAmount, .fullTransfer]
        var platformFees: [PlatformFeeRow] = []
        platformFees.reserveCapacity(rows)
        for index in 0..<rows {
            let style = styles[index % 3]
            let amount = Int64(1_000 + (index * 7_919) % 250_000)
            let fee = amount / 10
            platformFees.append(
                PlatformFeeRow(
                    chargeID: "ch_bench\(String(index, radix: 36))", created: 1_793_491_200 + Int64(index),
                    currency: currencies[index % currencies.count], amount: amount,
                    amountRefunded: index % 11 == 0 ? amount / 2 : 0, destinationAccount: "acct_bench\(index % 400)",
                    feeStyle: style,
                    transferID: style == .fullTransfer || style == .transferAmount || index % 2 == 0
                        ? "tr_bench\(String(index, radix: 36))" : nil,
                    transferAmount: amount - fee, transferReversed: 0,
                    applicationFeeID: style == .applicationFee ? "fee_bench\(String(index, radix: 36))" : nil,
                    applicationFeeCurrency: style == .applicationFee ? currencies[index % currencies.count] : nil,
                    applicationFeeAmount: style == .applicationFee ? fee : nil,
                    applicationFeeRefunded: style == .applicationFee ? 0 : nil, destinationPlatformFee: fee,
                    stripeFee: amount * 29 / 1000 + 30, settlementCurrency: .usd, platformNet: fee - 30))
        }
        let metadata = try BenchReport.metadata()
        // Streamed in parts of 5,000 rows, as the reconcile hands them over.
        let stream = try ReportStream(range: metadata.range, to: folder)
        for start in stride(from: 0, to: rows, by: 5_000) {
            try stream.append(platformFees: Array(platformFees[start..<min(start + 5_000, rows)]))
        }
        let files = try stream.finish(ReconciliationReport(), metadata: metadata)
        let csvRows = files.csvFile(named: "platform_fees.csv")?.rowCount ?? 0
        let timings = stream.timings
        let workbook = timings.workbookRows + timings.workbookClose
        return [
            Figure("rows in one sheet", Format.count(rows)),
            Figure(
                "XLSX sheet streamed (rows written)", Format.seconds(timings.workbookRows),
                ratio: Format.rate(Double(rows) / timings.workbookRows, unit: "rows")),
            Figure(
                "XLSX workbook incl. close (zip) and sync", Format.seconds(workbook),
                target: "report it", ratio: Format.rate(Double(rows) / workbook, unit: "rows")),
            Figure(
                "CSV of the same rows (for comparison)", Format.seconds(timings.csv),
                ratio: Format.rate(Double(rows) / timings.csv, unit: "rows")),
            Figure.check("every row in platform_fees.csv", passed: csvRows == rows, detail: Format.count(csvRows)),
            Figure.check(
                "\"Platform fees\" after \"Summary\", split only past Excel's row limit",
                passed: files.sheetNames.prefix(2) == ["Summary", "Platform fees"]
                    && files.sheetNames.contains("Platform fees (2)") == (rows >= LargeSheetBenchmark.excelRowLimit),
                detail: files.sheetNames.prefix(3).joined(separator: ", ")),
        ]
    }
}

/// Measurement (d): how fast the history stores extracted objects, page-sized transactions of real objects.
///
/// The objects are those measurement (a) extracted (facts and raw JSON read back from its history), written
/// into a fresh history in transactions of one page each (100 list items; a charge page also carries its 100
/// expanded PaymentIntents), first as new objects, then again as a re-run that finds them unchanged.
struct StorageBenchmark {
    var sourcePath: String
    var folder: URL
    var from: Int64
    var to: Int64
    /// A PostgreSQL server: the same pages are then written into a database there too.
    var postgreSQL: PostgreSQLAddress?

    /// What extraction at Stripe's limit can deliver: 100 pages/s of 100 items, plus embedded objects.
    static let neededRate = 20_000.0

    func run() async throws -> [Figure] {
        let source = try HistoryStore.open(path: sourcePath)
        var parts: [ReconciliationInput] = []
        try source.parts.forEach(from: from, to: to, asOf: to, skippedTransferGrace: 0) { parts.append($0) }
        let input = ReconciliationInput(merging: parts)
        parts = []
        func raws(_ kind: ObjectKind) throws -> [String: String] { try source.objects.rawObjects(of: kind) }
        let chargeRaw = try raws(.charge)
        let intentRaw = try raws(.paymentIntent)
        var pages: [ObjectLists] = []
        func pack<Facts: ObjectFacts>(_ facts: [Facts], _ raw: [String: String]) {
            var index = 0
            while index < facts.count {
                var batch = ObjectLists()
                for item in facts[index..<min(index + 100, facts.count)] {
                    batch[stored: Facts.self].append(StoredObject(facts: item, rawJSON: raw[item.id] ?? "{}"))
                }
                pages.append(batch)
                index += 100
            }
        }
        // Charge pages carry their expanded PaymentIntents, as the extractor stores them.
        let intents = Dictionary(input.paymentIntents.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        while index < input.charges.count {
            var batch = ObjectLists()
            for charge in input.charges[index..<min(index + 100, input.charges.count)] {
                batch[stored: ChargeFacts.self].append(
                    StoredObject(facts: charge, rawJSON: chargeRaw[charge.id] ?? "{}"))
                if let id = charge.paymentIntentID, let intent = intents[id] {
                    batch[stored: PaymentIntentFacts.self].append(
                        StoredObject(facts: intent, rawJSON: intentRaw[id] ?? "{}"))
                }
            }
            pages.append(batch)
            index += 100
        }
        pack(input.transfers, try raws(.transfer))
        pack(input.transferReversals, try raws(.transferReversal))
        pack(input.applicationFees, try raws(.applicationFee))
        pack(input.feeRefunds, try raws(.feeRefund))
        pack(input.refunds, try raws(.refund))
        pack(input.disputes, try raws(.dispute))
        pack(input.balanceTransactions, try raws(.balanceTransaction))
        let objects = pages.reduce(0) { $0 + $1.count }

        var histories: [(name: String, location: HistoryLocation)] = [
            ("SQLite", ExtractionBenchmark.freshSQLiteHistory(folder.appendingPathComponent("storage.sqlite").path))
        ]
        if let postgreSQL {
            histories.append(
                ("PostgreSQL", try BenchmarkDatabases.recreate("connect_recon_bench_storage", server: postgreSQL)))
        }
        var figures = [
            Figure("objects written (\(Format.count(pages.count)) page transactions)", Format.count(objects))
        ]
        for (name, location) in histories {
            let store = try HistoryStore.open(location)
            var seconds: [Double] = []
            for _ in 0..<2 {
                let runID = try ExtractionBenchmark.beginRun(
                    store, from: from, to: to, now: to + 30 * 86_400, apiBase: "offline")
                let watch = Stopwatch()
                for page in pages { try await store.objects.write(page, run: runID, now: to) }
                seconds.append(watch.seconds)
                try store.runs.finishRun(runID, status: .completed, finishedAt: to, message: nil, details: nil)
            }
            figures += [
                Figure.atLeast(
                    "\(name): first extraction (all new)", Double(objects) / seconds[0], Self.neededRate,
                    format: { Format.rate($0, unit: "objects") }, targetText: "≥ 20,000 objects/s (API's max)"),
                Figure.atLeast(
                    "\(name): re-run (all unchanged)", Double(objects) / seconds[1], Self.neededRate,
                    format: { Format.rate($0, unit: "objects") }, targetText: "≥ 20,000 objects/s (API's max)"),
            ]
        }
        return figures
    }
}
