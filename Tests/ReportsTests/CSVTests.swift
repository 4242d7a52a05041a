import Foundation
import ReconCore
import Reports
import TestSupport
import Testing

@Suite("CSV files")
struct CSVTests {
    static let expectedFiles: [(String, String)] = [
        (
            "platform_fees.csv",
            """
            charge_id,created_utc,currency,amount,amount_refunded,destination_account,fee_style,transfer_id,\
            transfer_amount,transfer_reversed,application_fee_id,application_fee_currency,application_fee_amount,\
            application_fee_refunded,destination_platform_fee,stripe_fee,settlement_currency,platform_net
            ch_1,2026-11-20T13:45:07Z,usd,10.00,0.00,acct_1,application_fee,tr_1,10.00,0.00,fee_1,jpy,185,0,1.23,0.59,usd,
            ch_2,2026-11-20T13:45:08Z,usd,10.00,10.00,acct_2,transfer_amount,tr_2,8.77,0.00,,,,,-8.77,,,
            ch_3,2026-11-20T13:45:09Z,jpy,1234567,0,acct_3,application_fee,tr_3,1234567,0,fee_3,jpy,877,0,877,4321,jpy,877
            ch_4,2026-11-20T13:45:10Z,bhd,10.000,0.000,,full_transfer,tr_4,10.000,0.000,,,,,8.770,0.50,usd,-0.05

            """
        ),
        (
            "transfer_groups.csv",
            """
            transfer_group,created_utc,currency,charges,charged,refunded,transfers,transferred,reversed,platform_take,\
            stripe_fee,settlement_currency,platform_net
            order_1234,2026-11-20T13:45:07Z,usd,1,100.00,0.00,2,85.00,10.00,25.00,3.20,usd,21.80
            ch_8,2026-11-20T13:45:12Z,,1,,,1,,,,0.30,eur,

            """
        ),
        (
            "skipped_transfers.csv",
            """
            charge_id,created_utc,currency,amount,intended_destination,payment_intent_id,amount_owed,status
            ch_5,2026-11-20T13:45:07Z,usd,20.00,acct_9,pi_5,18.00,new

            """
        ),
        (
            "unreversed_disputes.csv",
            """
            dispute_id,charge_id,created_utc,currency,dispute_amount,dispute_status,destination_account,transfer_id,\
            recoverable,recovered,unrecovered,status
            dp_1,ch_1,2026-11-20T13:45:07Z,usd,10.00,lost,acct_1,tr_1,10.00,2.50,7.50,open

            """
        ),
        (
            "exceptions.csv",
            """
            kind,object_id,related_id,currency,expected,actual,message,status
            application_fee_amount_mismatch,ch_6,fee_6,usd,1.23,-1.00,"The fee is 1.00, not 1.23, ""as asked""; check the fee.",new
            transfer_destination_mismatch,tr_7,,,acct_1,"'=HYPERLINK(""x"")","Zürich → 東京
            line 2",open

            """
        ),
        (
            "ledger.csv",
            """
            currency,balance_type,reporting_category,count,gross,fee,net
            usd,payments,charge,3,30.00,1.18,28.82
            usd,payments,transfer,2,-18.77,0.00,-18.77
            usd,refund_and_dispute_prefunding,refund,1,-5.00,0.00,-5.00

            """
        ),
        (
            "summary.csv",
            """
            currency,destination_charges,gross,refunded,destination_platform_fee,stripe_fee,skipped_transfers,\
            amount_owed,unreversed_disputes,unrecovered,pending_charges,pending_amount,transfer_groups,platform_take,\
            stripe_costs,account_debits,losses_covered
            bhd,1,10.000,0.000,8.770,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0.000,0.000,0.000
            jpy,1,1234567,0,877,4321,0,0,0,0,2,1500,0,0,300,0,0
            usd,2,20.00,10.00,-7.54,1.09,1,18.00,1,7.50,1,12.34,1,25.00,18.22,5.00,20.00

            """
        ),
        (
            "connected_accounts.csv",
            """
            destination_account,currency,destination_charges,gross,refunded,transferred,reversed,application_fees,\
            destination_platform_fee,skipped_transfers,amount_owed,unreversed_disputes,unrecovered,account_debits,\
            losses_covered
            acct_1,usd,1,10.00,0.00,10.00,0.00,1.23,1.23,0,0.00,1,7.50,5.00,20.00
            acct_2,usd,1,10.00,10.00,8.77,0.00,0.00,-8.77,0,0.00,0,0.00,0.00,0.00
            acct_3,jpy,1,1234567,0,1234567,0,877,877,0,0,0,0,0,0
            acct_9,usd,0,0.00,0.00,0.00,0.00,0.00,0.00,1,18.00,0,0.00,0.00,0.00
            ,bhd,1,10.000,0.000,10.000,0.000,0.000,8.770,0,0.000,0,0.000,0.000,0.000

            """
        ),
        (
            "stripe_costs.csv",
            """
            day,currency,kind,count,amount
            2026-10-01,jpy,Connect: Account Volume Billing,1,300
            2026-11-18,usd,Card payments: Transaction network costs,1,4.12
            2026-11-19,usd,Card payments: Credit for previously-assessed fees,1,-1.20
            2026-11-19,usd,Card payments: Stripe volume fees,2,15.30
            2026-11-20,usd,'=Radar,1,0.00

            """
        ),
        (
            "payouts.csv",
            """
            payout_id,created_utc,arrival_date,currency,amount,status,reconciliation_status,balance_transactions,\
            net_of_transactions,difference,type
            po_1,2026-11-20T13:45:07Z,2026-11-22T00:00:00Z,usd,10.00,paid,completed,2,10.00,0.00,automatic
            po_2,2026-11-20T13:45:08Z,2026-11-22T00:00:00Z,jpy,877,failed,completed,1,877,0,automatic
            po_3,2026-11-20T13:45:09Z,2026-11-22T00:00:00Z,bhd,8.780,in_transit,completed,1,8.770,0.010,automatic
            po_4,2026-11-20T13:45:10Z,2026-11-22T00:00:00Z,usd,25.00,in_transit,in_progress,,,,automatic
            po_5,2026-11-20T13:45:11Z,2026-11-21T00:00:00Z,usd,35.00,paid,not_applicable,,,,manual

            """
        ),
        (
            "payout_transactions.csv",
            """
            payout_id,balance_transaction_id,created_utc,available_on,currency,gross,fee,net,reporting_category,\
            source_id
            po_1,txn_p1,2026-11-19T13:45:07Z,2026-11-20T00:00:00Z,usd,10.00,0.59,9.41,charge,ch_1
            po_1,txn_p2,2026-11-19T13:51:47Z,,usd,0.59,0.00,0.59,platform_earning,fee_1
            po_2,txn_p3,2026-11-19T15:31:47Z,2026-11-20T00:00:00Z,jpy,900,23,877,charge,ch_3
            po_3,txn_p4,2026-11-19T18:18:27Z,2026-11-20T00:00:00Z,bhd,8.770,0.000,8.770,'-adjustment,'=cmd

            """
        ),
        (
            "balance.csv",
            """
            currency,balance_type,starting_balance,activity,payouts,ending_balance,in_transit_payouts,stripe_balance,\
            stripe_balance_at,continuity_difference,stripe_report,stripe_report_difference
            bhd,payments,,8.770,0.000,,,,,,not_compared,
            jpy,payments,1000,877,-877,1000,0,1000,2026-11-21T01:30:00Z,5,not_yet_published,
            usd,issuing,-5.00,0.00,0.00,-5.00,0.00,-5.00,2026-11-21T01:30:00Z,0.00,not_compared,
            usd,payments,30.00,150.00,-60.00,120.00,25.00,95.00,2026-11-21T01:30:00Z,0.00,agrees,0.00

            """
        ),
    ]

    @Test(arguments: expectedFiles)
    func writesEachFileByteForByteAsSpecified(name: String, expected: String) throws {
        // Given the seed's worked numbers (usd, jpy, bhd, a negative DPF, empty optionals, quotes, UTF-8)
        let scratch = try TemporaryFolder()
        // When the report is written
        let files = try ReportWriter.write(Fixture.report(), metadata: try Fixture.metadata(), to: scratch.url)
        // Then the file holds exactly these bytes: UTF-8 without BOM, `\n` line ends, RFC 4180 quoting
        let file = try #require(files.csvFile(named: name))
        let bytes = try Data(contentsOf: file.url)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(!bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(file.byteCount == bytes.count)
        #expect(file.url.deletingLastPathComponent().lastPathComponent == "2026-11-20_2026-11-21")
    }

    @Test func listsTheTwelveFilesInSpecOrderWithRowCounts() throws {
        let scratch = try TemporaryFolder()
        let files = try ReportWriter.write(Fixture.report(), metadata: try Fixture.metadata(), to: scratch.url)
        #expect(files.csvFiles.map(\.name) == CSVTests.expectedFiles.map(\.0))
        #expect(files.csvFiles.map(\.rowCount) == [4, 2, 1, 1, 2, 3, 3, 5, 5, 5, 4, 4])
        #expect(files.amountsWithUnknownDecimals == 0)
    }

    @Test func anEmptyReportStillHasEveryFileWithItsHeader() throws {
        let scratch = try TemporaryFolder()
        let files = try ReportWriter.write(ReconciliationReport(), metadata: try Fixture.metadata(), to: scratch.url)
        for (file, expected) in zip(files.csvFiles, CSVTests.expectedFiles) {
            let header = expected.1.prefix { $0 != "\n" } + "\n"
            #expect(try text(file.url) == String(header))
        }
    }

    @Test(
        "text that starts like a formula gets a leading quote; other text is untouched",
        arguments: [
            ("=1+2", "'=1+2"),
            ("+41 44 123", "'+41 44 123"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
            ("\tcmd", "'\tcmd"),
            ("\rcmd", "\"'\rcmd\""),
            ("=A1,B1", "\"'=A1,B1\""),
            ("a=b", "a=b"),
            ("1-2", "1-2"),
            (" =1", " =1"),
            ("", ""),
        ])
    func neutralisesFormulaTextInCSV(message: String, field: String) throws {
        let scratch = try TemporaryFolder()
        let report = ReconciliationReport(exceptions: [
            ExceptionRow(
                kind: .missingObject, objectID: "ch_1", relatedID: nil, currency: .usd, expected: .amount(-877),
                actual: .text(message), message: message)
        ])
        let files = try ReportWriter.write(report, metadata: try Fixture.metadata(), to: scratch.url)
        let lines = try text(try #require(files.csvFile(named: "exceptions.csv")).url)
        // The negative amount stays a plain number; the text fields are neutralised.
        #expect(lines.hasSuffix("\nmissing_object,ch_1,,usd,-8.77,\(field),\(field),new\n"))
    }

    @Test(arguments: [
        ("=1", "'=1"), ("+1", "'+1"), ("-1", "'-1"), ("@x", "'@x"), ("\t", "'\t"), ("\r", "'\r"), ("x=1", "x=1"),
        ("'=1", "'=1"), ("", ""), ("\u{FF1D}1", "\u{FF1D}1"), ("é=1", "é=1"), ("\u{2212}1", "\u{2212}1"),
    ])
    func formulaGuardPrefixesOnlyDangerousFirstCharacters(input: String, output: String) {
        #expect(FormulaGuard.neutralised(input) == output)
    }

    @Test func amountsInACurrencyWithUnknownDecimalsAreLabelledMinorUnitsAndCounted() throws {
        // Given a currency Stripe's table does not know, and an exception amount with no currency at all
        let scratch = try TemporaryFolder()
        let unknown = try #require(Currency(rawValue: "xyz"))
        #expect(unknown.exponent == nil)
        let report = ReconciliationReport(
            exceptions: [
                ExceptionRow(
                    kind: .missingObject, objectID: "ch_1", relatedID: nil, currency: nil, expected: .amount(10),
                    actual: nil, message: "m")
            ],
            ledger: [LedgerRow(currency: unknown, reportingCategory: "charge", count: 1, gross: 877, fee: -5, net: 872)]
        )
        // When written
        let files = try ReportWriter.write(report, metadata: try Fixture.metadata(), to: scratch.url)
        // Then nothing is guessed: the raw minor units, labelled, and counted
        #expect(
            try text(try #require(files.csvFile(named: "ledger.csv")).url)
                == "currency,balance_type,reporting_category,count,gross,fee,net\n"
                + "xyz,payments,charge,1,minor units: 877,minor units: -5,minor units: 872\n")
        #expect(
            try text(try #require(files.csvFile(named: "exceptions.csv")).url).hasSuffix(
                "\nmissing_object,ch_1,,,minor units: 10,,m,new\n"))
        #expect(files.amountsWithUnknownDecimals == 4)
    }

    @Test(arguments: [
        Int64(0), 1_795_182_307, 951_782_400, 951_868_799, 4_102_444_800, 253_402_300_799, -1, -86_400, 1_709_164_800,
    ])
    func timesAreUTCLikeRFC3339(unixSeconds: Int64) throws {
        let scratch = try TemporaryFolder()
        let report = ReconciliationReport(skippedTransfers: [
            SkippedTransferRow(
                chargeID: "ch", created: unixSeconds, currency: .usd, amount: 1, intendedDestination: "acct",
                paymentIntentID: "pi", amountOwed: 1)
        ])
        let files = try ReportWriter.write(report, metadata: try Fixture.metadata(), to: scratch.url)
        let expected = RFC3339.utcString(Date(timeIntervalSince1970: TimeInterval(unixSeconds)))
        #expect(
            try text(try #require(files.csvFile(named: "skipped_transfers.csv")).url).contains(
                "\nch,\(expected),usd,0.01,acct,pi,0.01,new\n"))
    }

    @Test func theRecordedSHA256IsTheFilesDigest() throws {
        let scratch = try TemporaryFolder()
        let files = try ReportWriter.write(Fixture.report(), metadata: try Fixture.metadata(), to: scratch.url)
        let sha256sum = try #require(ExternalProgram.find("sha256sum"), "needs sha256sum (coreutils)")
        for file in files.csvFiles {
            let output = try ExternalProgram.output(of: sha256sum, [file.url.path])
            #expect(output.prefix(64) == file.sha256[...], "\(file.name)")
        }
    }
}
