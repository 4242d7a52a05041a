import Foundation
import ReconCore
import Reports
import TestSupport
import Testing

@Suite("Atomic report folders")
struct AtomicWriteTests {
    static let expectedFiles = [
        "balance.csv", "connected_accounts.csv", "exceptions.csv", "ledger.csv", "payout_transactions.csv",
        "payouts.csv",
        "platform_fees.csv", "reconciliation_2026-11-20_2026-11-21.xlsx", "skipped_transfers.csv", "stripe_costs.csv",
        "summary.csv", "transfer_groups.csv", "unreversed_disputes.csv",
    ]

    @Test func writesOneFolderWithTheThirteenFilesAndNothingElse() throws {
        let scratch = try TemporaryFolder()
        let files = try ReportWriter.write(Fixture.report(), metadata: try Fixture.metadata(), to: scratch.url)
        #expect(try scratch.entries() == ["2026-11-20_2026-11-21"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.folder.path).sorted() == Self.expectedFiles)
        #expect(files.workbook.lastPathComponent == "reconciliation_2026-11-20_2026-11-21.xlsx")
    }

    @Test func createsAMissingOutputFolderWithItsParents() throws {
        let scratch = try TemporaryFolder()
        let out = scratch.url.appendingPathComponent("a/b/Reports")
        let files = try ReportWriter.write(Fixture.report(), metadata: try Fixture.metadata(), to: out)
        #expect(FileManager.default.fileExists(atPath: files.workbook.path))
    }

    @Test func aSecondWriteReplacesTheFirstAndLeavesNoHiddenFolders() throws {
        // Given a written report
        let scratch = try TemporaryFolder()
        let metadata = try Fixture.metadata()
        let first = try ReportWriter.write(Fixture.report(), metadata: metadata, to: scratch.url)
        let before = try text(try #require(first.csvFile(named: "ledger.csv")).url)
        // When the range is written again with other figures
        var report = Fixture.report()
        report.ledger = [LedgerRow(currency: .eur, reportingCategory: "charge", count: 1, gross: 5, fee: 0, net: 5)]
        let second = try ReportWriter.write(report, metadata: metadata, to: scratch.url)
        // Then the folder holds the new report, whole, and nothing else is left behind
        let after = try text(try #require(second.csvFile(named: "ledger.csv")).url)
        #expect(before != after)
        #expect(
            after
                == "currency,balance_type,reporting_category,count,gross,fee,net\neur,payments,charge,1,0.05,0.00,0.05\n"
        )
        #expect(try scratch.entries() == ["2026-11-20_2026-11-21"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: second.folder.path).sorted() == Self.expectedFiles)
    }

    @Test(arguments: [WriteStage.afterCSVFiles, .afterSheets, .afterWorkbook, .beforeSwap])
    func aWriteThatFailsMidwayLeavesThePreviousReportByteIdentical(stage: WriteStage) throws {
        // Given a written report
        let scratch = try TemporaryFolder()
        let metadata = try Fixture.metadata()
        let first = try ReportWriter.write(Fixture.report(), metadata: metadata, to: scratch.url)
        let before = try TemporaryFolder.snapshot(first.folder)
        // When the next write of the range fails at `stage` (the disk fills up)
        var report = Fixture.report()
        report.platformFees.removeAll()
        let injected = ReportError.diskFull(path: "\(scratch.path)/injected")
        let options = WriteOptions { current throws(ReportError) in
            if current == stage { throw injected }
        }
        #expect(throws: injected) {
            try ReportWriter.write(report, metadata: metadata, to: scratch.url, options: options)
        }
        // Then the previous report is untouched, byte for byte, and no temporary folder remains
        #expect(try TemporaryFolder.snapshot(first.folder) == before)
        #expect(try scratch.entries() == ["2026-11-20_2026-11-21"])
    }

    @Test func aStreamDroppedBeforeItsFinishLeavesThePreviousReportAndNoTemporaryFolder() throws {
        // Given a written report
        let scratch = try TemporaryFolder()
        let metadata = try Fixture.metadata()
        let first = try ReportWriter.write(Fixture.report(), metadata: metadata, to: scratch.url)
        let before = try TemporaryFolder.snapshot(first.folder)
        // When the next report of the range streams some platform fees and is then abandoned (the reconcile failed)
        do {
            let stream = try ReportStream(range: metadata.range, to: scratch.url)
            try stream.append(platformFees: Fixture.report().platformFees)
            #expect(try scratch.entries().count == 2, "the stream writes into a hidden folder of its own")
        }
        // Then the previous report is untouched and the hidden folder is gone
        #expect(try TemporaryFolder.snapshot(first.folder) == before)
        #expect(try scratch.entries() == ["2026-11-20_2026-11-21"])
    }

    @Test func aFirstWriteThatFailsLeavesNoFolderAtAll() throws {
        let scratch = try TemporaryFolder()
        let options = WriteOptions { stage throws(ReportError) in
            if stage == .beforeSwap { throw .diskFull(path: "x") }
        }
        #expect(throws: ReportError.self) {
            try ReportWriter.write(
                Fixture.report(), metadata: try Fixture.metadata(), to: scratch.url, options: options)
        }
        #expect(try scratch.entries() == [])
    }

    @Test func leftoversOfAKilledRunAreRemovedAtTheNextWrite() throws {
        // Given the hidden folders a killed run leaves (its process is gone), a fresh one of a live run, and
        // an unrelated hidden folder
        let scratch = try TemporaryFolder()
        let deadProcess = Int32.max - 1
        let stale = [
            ".2026-11-20_2026-11-21.tmp-\(deadProcess)-1a2b3c",
            ".2026-11-20_2026-11-21.old-\(deadProcess)-ff",
            ".2026-10-01_2026-10-02.tmp-\(deadProcess)-0",
        ]
        let kept = [".2026-11-22_2026-11-23.tmp-\(getpid())-abc", ".git", "notes.tmp-1-2"]
        for name in stale + kept {
            let folder = scratch.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("partial".utf8).write(to: folder.appendingPathComponent("platform_fees.csv"))
        }
        // When a report is written
        _ = try ReportWriter.write(Fixture.report(), metadata: try Fixture.metadata(), to: scratch.url)
        // Then the dead run's leftovers are gone and everything else stays
        #expect(try scratch.entries() == (kept + ["2026-11-20_2026-11-21"]).sorted())
    }

    @Test func anOutputPathThatIsAFileIsAClearError() throws {
        let scratch = try TemporaryFolder()
        let file = scratch.url.appendingPathComponent("Reports")
        try Data().write(to: file)
        #expect(throws: ReportError.outputNotAFolder(path: file.path)) {
            try ReportWriter.write(Fixture.report(), metadata: try Fixture.metadata(), to: file)
        }
    }

    @Test(arguments: [
        (ReportError.diskFull(path: "/r/x.csv"), "disk is full"),
        (.outputNotWritable(path: "/r", reason: "Permission denied"), "Make the folder writable"),
        (.outputNotAFolder(path: "/r"), "is a file, not a folder"),
        (.fileSystem(operation: "write", path: "/r/x.csv", reason: "Input/output error"), "Input/output error"),
        (
            .workbook(path: "/r/x.xlsx", operation: "close", reason: "Error creating output xlsx file"),
            "free disk space"
        ),
    ])
    func everyErrorNamesThePathSaysWhatToDoAndExitsOne(error: ReportError, phrase: String) {
        #expect(error.message.contains(phrase))
        #expect(error.message.contains("/r"))
        #expect(error.description == error.message)
        #expect(!error.isBadInput)
    }

    @Test func aFailureToCreateTheTemporaryFolderIsReportedAndChangesNothing() throws {
        // Given an output path below a regular file (ENOTDIR): unusable even for root, unlike permissions
        let scratch = try TemporaryFolder()
        let blocker = scratch.url.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let out = blocker.appendingPathComponent("Reports")
        let metadata = try Fixture.metadata()
        // When / Then: a typed error that names the path, exit status 1
        do {
            _ = try ReportWriter.write(Fixture.report(), metadata: metadata, to: out)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains(blocker.path))
            #expect(!error.isBadInput)
        }
        #expect(try scratch.entries() == ["blocker"])
    }
}
