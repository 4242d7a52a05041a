import Foundation
import ReconCore
import StripeAPI
import Testing

@Suite("Report files: CSV, amounts, columns")
struct ReportCSVTests {
    // MARK: CSV

    @Test func quotedFieldsDoubledQuotesAndLineBreaksInsideThemAreRead() throws {
        let text = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n,\"\",last\n"

        let records = try CSVReader.records(Array(text.utf8))

        #expect(records == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["", "", "last"]])
    }

    @Test func lfAndCRLFEndRecordsAndTheLastLineBreakBlankLinesAndABOMDoNotCount() throws {
        let text = "\u{FEFF}h1,h2\n1,2\r\n\n3,4"

        #expect(try CSVReader.records(Array(text.utf8)) == [["h1", "h2"], ["1", "2"], ["3", "4"]])
    }

    @Test(arguments: ["a,\"open\nb,c\n", "a,\"x\"y,b\n", "a,b\"c\n"])
    func brokenQuotingIsAnError(text: String) {
        #expect(throws: CSVReader.Problem.self) { try CSVReader.records(Array(text.utf8)) }
    }

    // MARK: Amounts

    @Test(arguments: [
        ("-60.00", 2, Int64(-6_000)), ("1234", 0, 1_234), ("0.123", 3, 123), ("1.5", 2, 150), ("8.770", 3, 8_770),
        ("-0.05", 2, -5), ("0", 2, 0), ("92233720368547758.07", 2, Int64.max),
        ("-92233720368547758.08", 2, Int64.min), ("7", 3, 7_000),
    ])
    func majorUnitsAreReadExactly(text: String, exponent: Int, expected: Int64) throws {
        #expect(try MajorUnitParser.minorUnits(text, exponent: exponent) == expected)
    }

    @Test(arguments: [
        ("", 2, MajorUnitParser.Problem.empty), ("1e3", 2, .unexpectedCharacter("e")),
        ("1,000.00", 2, .unexpectedCharacter(",")), ("NaN", 2, .unexpectedCharacter("N")),
        ("+5", 2, .unexpectedCharacter("+")), (" 5", 2, .unexpectedCharacter(" ")), ("1.", 2, .missingDigits),
        (".5", 2, .missingDigits), ("-", 2, .missingDigits), ("1.234", 2, .tooManyDecimals(found: 3, exponent: 2)),
        ("12.5", 0, .tooManyDecimals(found: 1, exponent: 0)), ("1.2.3", 3, .unexpectedCharacter(".")),
        ("92233720368547758.08", 2, .overflow), ("€5", 2, .unexpectedCharacter("€")),
    ])
    func malformedAmountsAreRefused(text: String, exponent: Int, problem: MajorUnitParser.Problem) {
        #expect(throws: problem) { try MajorUnitParser.minorUnits(text, exponent: exponent) }
    }

    // MARK: Reports

    @Test func aBalanceSummaryIsReadByColumnNameInAnyOrderIgnoringExtraColumns() throws {
        let csv = """
            net_amount,extra,currency,category,description
            1234,x,jpy,starting_balance,Starting balance
            -60,y,jpy,activity,Activity
            "-1000",z,jpy,payouts,"Payouts, automatic"
            174,w,jpy,ending_balance,Ending balance
            """

        let report = try StripeReportCSV.balanceSummary(
            Array(csv.utf8), currency: .jpy, intervalStart: 10, intervalEnd: 20)

        #expect(
            report
                == BalanceSummaryReport(
                    currency: .jpy, intervalStart: 10, intervalEnd: 20, starting: 1_234, activity: -60, payouts: -1_000,
                    ending: 174))
    }

    @Test func anActivitySummaryInBHDKeepsUnknownReportingCategories() throws {
        let csv =
            "reporting_category,currency,count,gross,fee,net\r\n"
            + "charge,bhd,3,12.340,0.370,11.970\r\nbrand_new_category,bhd,1,-0.010,0.000,-0.010\r\n"

        let report = try StripeReportCSV.activitySummary(
            Array(csv.utf8), currency: .bhd, intervalStart: 0, intervalEnd: 86_400)

        #expect(report.rows["charge"] == ActivitySummaryReport.Row(count: 3, gross: 12_340, fee: 370, net: 11_970))
        #expect(report.net == ["charge": 11_970, "brand_new_category": -10])
    }

    @Test func aMissingRequiredColumnIsNamed() {
        let csv = "category,description,currency\nstarting_balance,Starting balance,usd\n"

        #expect(throws: ReportCSVError.missingColumn(report: "balance.summary.1", column: "net_amount")) {
            try StripeReportCSV.balanceSummary(Array(csv.utf8), currency: .usd, intervalStart: 0, intervalEnd: 1)
        }
    }

    @Test func anUnknownBalanceCategoryIsNamed() throws {
        let csv = "category,net_amount,currency\nstarting_balance,1.00,usd\nreserves,2.00,usd\n"

        let error = #expect(throws: ReportCSVError.self) {
            try StripeReportCSV.balanceSummary(Array(csv.utf8), currency: .usd, intervalStart: 0, intervalEnd: 1)
        }
        #expect(error == .unknownCategory(report: "balance.summary.1", row: 2, category: "reserves"))
        #expect(error?.message.contains("'reserves'") == true)
    }

    @Test func aMalformedAmountNamesTheReportTheRowAndTheColumn() throws {
        let csv =
            "reporting_category,currency,count,gross,fee,net\ncharge,usd,1,1.00,0.10,0.90\n"
            + "refund,usd,1,-1.00,1e2,-1.00\n"

        let error = #expect(throws: ReportCSVError.self) {
            try StripeReportCSV.activitySummary(Array(csv.utf8), currency: .usd, intervalStart: 0, intervalEnd: 1)
        }
        let message = try #require(error?.message)
        #expect(message.contains("balance_change_from_activity.summary.1"))
        #expect(message.contains("row 2"))
        #expect(message.contains("column 'fee'"))
        #expect(message.contains("'1e2'"))
    }

    @Test func aRowInAnotherCurrencyOrAMissingBalanceRowIsRefused() {
        let otherCurrency = "category,net_amount,currency\nstarting_balance,1.00,eur\n"
        let missingRow = "category,net_amount,currency\nstarting_balance,1.00,usd\nactivity,1.00,usd\n"

        #expect(throws: ReportCSVError.self) {
            try StripeReportCSV.balanceSummary(
                Array(otherCurrency.utf8), currency: .usd, intervalStart: 0, intervalEnd: 1)
        }
        #expect(throws: ReportCSVError.invalidRows(report: "balance.summary.1", detail: "there is no 'payouts' row")) {
            try StripeReportCSV.balanceSummary(Array(missingRow.utf8), currency: .usd, intervalStart: 0, intervalEnd: 1)
        }
    }
}
