import ConnectReconTestSupport
import Foundation
import History
import ReconCore
import Synchronization
import TestSupport
import Testing

/// Hostile and broken input: what an API base (or a tampered history) sends, at the command level.
/// Every case ends in exit 0 with a report that shows the oddity, or in a clear error; never a crash, a
/// silent gap or a formula.
@Suite("Hostile and broken API input")
struct HostileInputTests {
    struct Outcome {
        let result: CLIResult
        let folder: TemporaryFolder
        var reportFolder: String { folder.path("reports") + "/2026-11-19_2026-11-20" }

        func csv(_ name: String) -> String {
            (try? String(contentsOfFile: reportFolder + "/" + name, encoding: .utf8)) ?? ""
        }

        func runs() throws -> [RunRecord] { try HistoryStore.open(path: folder.path("history.sqlite")).runs.list() }
    }

    /// Runs `run` for 2026-11-19 against a stub serving `objects` (and `override` first).
    static func run(_ objects: [StubStripe.Object], override: StubStripe.Override? = nil) async throws -> Outcome {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let result = try await StubStripe.with(objects, override: override) { stub in
            await CLI.run(
                [
                    "run", "--config", config, "--out", folder.path("reports"), "--db", folder.path("history.sqlite"),
                    "--api-base", stub.baseURL,
                ] + StubObjects.range,
                environment: ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_API_MAX_RETRIES": "1"])
        }
        #expect(!result.error.contains(CLI.testKey) && !result.output.contains(CLI.testKey))
        return Outcome(result: result, folder: folder)
    }

    /// Expects exit 1 with every phrase, the run recorded as failed with the message, and no report.
    static func expectFailure(
        _ outcome: Outcome, _ phrases: [String], sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        #expect(outcome.result.status == 1, "\(outcome.result.error)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(
                outcome.result.error.contains(phrase), "mentions '\(phrase)': \(outcome.result.error)",
                sourceLocation: sourceLocation)
        }
        #expect(!FileManager.default.fileExists(atPath: outcome.reportFolder), sourceLocation: sourceLocation)
        let run = try outcome.runs().first
        #expect(run?.status == .failed, sourceLocation: sourceLocation)
        #expect(run?.message?.isEmpty == false, sourceLocation: sourceLocation)
    }

    static let good = StubObjects.destinationCharge("good")

    // MARK: - Broken responses

    @Test("an API base that answers an HTML page")
    func htmlPage() async throws {
        let outcome = try await Self.run(Self.good) { path, _ in
            path == "/v1/charges"
                ? StubStripe.Reply(
                    status: 200, body: "<!DOCTYPE html><html><body>Sign in</body></html>", contentType: "text/html")
                : nil
        }
        try Self.expectFailure(
            outcome,
            ["GET /v1/charges returned something that is not Stripe's JSON", "Request-Id req_stub", "api.base_url"])
    }

    @Test("an API base that answers invalid JSON")
    func invalidJSON() async throws {
        let outcome = try await Self.run(Self.good) { path, _ in
            path == "/v1/transfers"
                ? StubStripe.Reply(status: 200, body: #"{"object":"list","data":[{"id":"tr_1","#) : nil
        }
        try Self.expectFailure(
            outcome, ["GET /v1/transfers returned something that is not Stripe's JSON", "Request-Id req_stub"])
    }

    @Test("a JSON error of a type Stripe has not documented")
    func unknownErrorType() async throws {
        let outcome = try await Self.run(Self.good) { path, _ in
            path == "/v1/disputes"
                ? StubStripe.error(400, type: "quantum_error", message: "A brand-new kind of error") : nil
        }
        try Self.expectFailure(
            outcome, ["GET /v1/disputes failed with HTTP 400", "A brand-new kind of error", "Request-Id req_stub"])
    }

    @Test("a list whose cursor does not advance stops instead of looping")
    func cursorDoesNotAdvance() async throws {
        let charge = try #require(Self.good.first { $0.resource == "charges" })
        let outcome = try await Self.run(Self.good) { path, _ in
            path == "/v1/charges"
                ? StubStripe.Reply(
                    status: 200,
                    body: #"{"object":"list","url":"/v1/charges","has_more":true,"data":[\#(charge.json)]}"#)
                : nil
        }
        try Self.expectFailure(
            outcome, ["GET /v1/charges broke Stripe's paging contract", "the cursor did not advance"])
    }

    @Test("null where Stripe always sends a value is a clear error naming the field")
    func nullWhereValueExpected() async throws {
        let outcome = try await Self.run(
            StubObjects.destinationCharge("nullamount") { $0["charge"]?["amount"] = NSNull() })
        try Self.expectFailure(outcome, ["GET /v1/charges", "amount"])
    }

    @Test("an amount beyond Int64 is a clear error, not a wrap-around")
    func amountBeyondInt64() async throws {
        var objects = StubObjects.destinationCharge("huge")
        objects[0].json = objects[0].json.replacingOccurrences(
            of: #""amount_captured":10000"#, with: #""amount_captured":9223372036854775808"#)
        #expect(objects[0].json.contains("9223372036854775808"))
        let outcome = try await Self.run(objects)
        try Self.expectFailure(outcome, ["GET /v1/charges", "item 1 is not a valid charge"])
        #expect(outcome.result.error.contains("'amount_captured' holds"), "\(outcome.result.error)")
        #expect(outcome.result.error.contains("does not fit in 64 bits"))
    }

    @Test("a refused expansion of an account debit's transfer leaves the debit naming nothing, the run going on")
    func refusedSourceTransfer() async throws {
        // Given an account debit naming nothing itself, whose transfer Stripe refuses to expand
        var debit = StubObjects.charge(
            id: "py_1Debit", created: StubObjects.day + 7_200, amount: 400, destination: nil, transfer: nil, fee: nil,
            feeAmount: nil, balanceTransaction: nil)
        debit["payment_intent"] = NSNull()
        debit["payment_method_details"] = ["stripe_account": [String: String](), "type": "stripe_account"]
        debit["source"] = ["id": "acct_1Dest", "object": "account"]
        debit["source_transfer"] = "tr_1OnTheAccount"
        let object = StubStripe.Object(
            resource: "charges", id: "py_1Debit", created: StubObjects.day + 7_200, json: StubObjects.json(debit))
        let asked = Atomic(0)
        let outcome = try await Self.run(Self.good + [object]) { path, query in
            guard path == "/v1/charges/py_1Debit", query.contains(where: { $0 == ("expand[]", "source_transfer") })
            else { return nil }
            asked.add(1, ordering: .relaxed)
            return StubStripe.error(
                400, type: "invalid_request_error", message: "This property cannot be expanded (source_transfer).")
        }
        // Then the run completes, says so, and asked once
        #expect(outcome.result.status == 0, "\(outcome.result.error)")
        #expect(outcome.result.error.contains("Stripe refused the transfer an account debit was made with"))
        #expect(asked.load(ordering: .relaxed) == 1)
        // and the debit is in its account's statement, recovering nothing
        #expect(outcome.csv("connected_accounts.csv").contains("4.00"), "\(outcome.csv("connected_accounts.csv"))")
    }

    // MARK: - Odd but valid objects

    @Test("unknown enum values and unknown fields are kept, not fatal")
    func unknownEnumValues() async throws {
        let objects = StubObjects.destinationCharge("novel") { parts in
            parts["txn_fee"]?["type"] = "quantum_payout"
            parts["txn_fee"]?["reporting_category"] = "quantum_category"
            parts["txn_fee"]?["status"] = "superposed"
            parts["txn_fee"]?["balance_type"] = "future_balance"
            parts["charge"]?["brand_new_field"] = ["nested": [1, 2, 3]]
            var intent = parts["charge"]?["payment_intent"] as? [String: Any] ?? [:]
            intent["capture_method"] = "automatic_async_v9"
            parts["charge"]?["payment_intent"] = intent
        }
        let outcome = try await Self.run(objects)
        #expect(outcome.result.status == 0, "\(outcome.result.error)")
        #expect(
            outcome.csv("ledger.csv").contains("\nusd,future_balance,quantum_category,1,12.30,0.00,12.30\n"),
            "\(outcome.csv("ledger.csv"))")
        #expect(outcome.csv("platform_fees.csv").contains("ch_novel,"))
    }

    @Test("missing optional fields change nothing")
    func missingOptionalFields() async throws {
        let full = try await Self.run(Self.good)
        #expect(full.result.status == 0, "\(full.result.error)")
        let sparse = StubObjects.destinationCharge("good") { parts in
            for field in [
                "description", "metadata", "transfer_group", "on_behalf_of", "failure_code", "failure_message",
                "failure_balance_transaction", "refunds", "source_transfer",
            ] { parts["charge"]?.removeValue(forKey: field) }
            for field in ["description", "metadata", "transfer_group"] { parts["transfer"]?.removeValue(forKey: field) }
            for key in ["txn_ch", "txn_tr", "txn_fee"] {
                parts[key]?.removeValue(forKey: "description")
                parts[key]?.removeValue(forKey: "exchange_rate")
            }
            parts["fee"]?.removeValue(forKey: "application")
        }
        let outcome = try await Self.run(sparse)
        #expect(outcome.result.status == 0, "\(outcome.result.error)")
        for name in csvNames {
            #expect(outcome.csv(name) == full.csv(name), "\(name) as with every field present")
        }
        #expect(outcome.csv("platform_fees.csv").contains("ch_good,"))
    }

    @Test("amounts at the edges of Int64: no crash, an amount_overflow exception row instead of a wrapped sum")
    func amountsAtInt64Edges() async throws {
        let big = Int64.max
        let objects =
            StubObjects.destinationCharge("maxa", hour: 1, amount: big, feeAmount: 1)
            + StubObjects.destinationCharge("maxb", hour: 2, amount: big, feeAmount: 1)
            + StubObjects.destinationCharge("mina", hour: 3, amount: 1, feeAmount: 0) { parts in
                parts["txn_tr"]?["amount"] = Int64.min + 1
                parts["txn_tr"]?["net"] = Int64.min + 1
            }
        let outcome = try await Self.run(objects)
        #expect(outcome.result.status == 0, "\(outcome.result.error)")
        let exceptions = outcome.csv("exceptions.csv")
        #expect(exceptions.contains("amount_overflow,"), "\(exceptions)")
        #expect(!outcome.csv("summary.csv").contains("-92233720368547758"), "no wrapped-around total")
        #expect(outcome.csv("platform_fees.csv").contains("ch_maxa,"))
    }

    @Test("an unknown currency: amounts written as minor units, never with guessed decimals")
    func unknownCurrency() async throws {
        let outcome = try await Self.run(
            StubObjects.destinationCharge("xyz", amount: 12_345, feeAmount: 100, currency: "xyz"))
        #expect(outcome.result.status == 0, "\(outcome.result.error)")
        let fees = outcome.csv("platform_fees.csv")
        #expect(fees.contains("ch_xyz,"), "\(fees)")
        #expect(fees.contains("minor units: 12345"), "\(fees)")
        #expect(!fees.contains("123.45") && !fees.contains("12345.00"))
    }

    @Test("a charge whose transfer belongs to another charge is an exception row")
    func transferOfAnotherCharge() async throws {
        // ch_b names tr_a as its transfer, but tr_a was funded by (and belongs to) ch_a.
        let objects =
            StubObjects.destinationCharge("a", hour: 1)
            + StubObjects.destinationCharge("b", hour: 2) { parts in
                parts["charge"]?["transfer"] = "tr_a"
                parts.removeValue(forKey: "transfer")
                parts.removeValue(forKey: "txn_tr")
            }
        let outcome = try await Self.run(objects)
        #expect(outcome.result.status == 0, "\(outcome.result.error)")
        let exceptions = outcome.csv("exceptions.csv")
        let rows = exceptions.split(separator: "\n").filter {
            $0.hasPrefix("transfer_of_another_charge,tr_a,ch_b,usd,ch_b,ch_a,")
        }
        #expect(rows.count == 1, "an exception names tr_a, ch_b and ch_a: \(exceptions)")
        #expect(!exceptions.contains("transfer_of_another_charge,tr_a,ch_a"), "ch_a's own transfer is fine")
    }

    @Test("text starting with = + - @ from Stripe is neutralised in the CSV and the workbook")
    func formulaText() async throws {
        let objects = StubObjects.destinationCharge("formula") { parts in
            parts["txn_fee"]?["reporting_category"] = "=SUM(A1:A2)"
            parts["txn_ch"]?["reporting_category"] = "@cmd"
            parts["charge"]?["id"] = "=HYPERLINK(1)"
            parts["transfer"]?["source_transaction"] = "=HYPERLINK(1)"
            parts["fee"]?["originating_transaction"] = "=HYPERLINK(1)"
            parts["txn_ch"]?["source"] = "=HYPERLINK(1)"
            parts["charge"]?["transfer_data"] = ["amount": NSNull(), "destination": "+acct_1Dest"]
        }
        let outcome = try await Self.run(objects)
        #expect(outcome.result.status == 0, "\(outcome.result.error)")
        let ledger = outcome.csv("ledger.csv")
        let fees = outcome.csv("platform_fees.csv")
        #expect(ledger.contains("\nusd,payments,'=SUM(A1:A2),"), "\(ledger)")
        #expect(ledger.contains("\nusd,payments,'@cmd,"), "\(ledger)")
        #expect(fees.contains("\n'=HYPERLINK(1),"), "\(fees)")
        #expect(fees.contains(",'+acct_1Dest,"), "\(fees)")
        for name in csvNames {
            let lines = outcome.csv(name).split(separator: "\n")
            for line in lines {
                for field in line.split(separator: ",") {
                    #expect(!["=", "+", "@"].contains(field.first.map(String.init) ?? ""), "\(name): \(field)")
                }
            }
        }
        // The workbook's XML: the texts are there with the quote, and no cell holds them as a formula.
        let workbook = outcome.reportFolder + "/reconciliation_2026-11-19_2026-11-20.xlsx"
        let xml = try unzipAll(workbook)
        #expect(xml.contains("'=SUM(A1:A2)"))
        #expect(xml.contains("'=HYPERLINK(1)"))
        #expect(xml.contains("'@cmd"))
        #expect(!xml.contains("<f>SUM(A1:A2)") && !xml.contains("<f>HYPERLINK(1)"))
    }
}

/// The history file tampered with or of the other mode, at the command level: exit 2 before any request.
@Suite("A history database that cannot be used")
struct HistoryFileTests {
    static func run(_ database: String, folder: TemporaryFolder, key: String = CLI.testKey) async throws -> CLIResult {
        let config = try folder.write("config.yaml", "")
        // The API base is a port nobody listens on: any request would fail with exit 1, not 2.
        return await CLI.run(
            [
                "run", "--config", config, "--out", folder.path("reports"), "--db", database, "--api-base",
                "http://127.0.0.1:9",
            ] + StubObjects.range,
            environment: ["STRIPE_API_KEY": key, "CONNECT_RECON_API_MAX_RETRIES": "0"])
    }

    @Test("a file that is not a history database: exit 2, move it aside")
    func corruptDatabase() async throws {
        let folder = try TemporaryFolder()
        let database = try folder.write("history.sqlite", String(repeating: "not a database ", count: 600))
        let result = try await Self.run(database, folder: folder)
        #expect(result.status == 2)
        #expect(result.error.contains("'\(database)' is not a connect-recon history database"), "\(result.error)")
        #expect(result.error.contains("Move it aside"))
        #expect(try String(contentsOfFile: database, encoding: .utf8).hasPrefix("not a database"), "left as it was")
        let reconcile = await CLI.run(
            ["reconcile", "--config", folder.path("config.yaml"), "--db", database] + StubObjects.range)
        #expect(reconcile.status == 2)
        #expect(reconcile.error.contains("is not a connect-recon history database"), "\(reconcile.error)")
    }

    @Test(
        "a database written by a newer connect-recon: exit 2, upgrade",
        .enabled(
            if: SQLiteShell.isAvailable,
            "needs sqlite3 (or python3) in /usr/bin to stage a newer schema; CI installs it"))
    func newerSchema() async throws {
        let folder = try TemporaryFolder()
        let database = folder.path("history.sqlite")
        _ = try HistoryStore.open(path: database)
        try #require(
            try SQLiteShell.run(database, "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") != nil)
        let result = try await Self.run(database, folder: folder)
        #expect(result.status == 2)
        #expect(result.error.contains("was written by a newer connect-recon"), "\(result.error)")
        #expect(result.error.contains("Upgrade"))
    }

    @Test("a database of the other mode: exit 2 before any request, use another --db")
    func otherMode() async throws {
        let folder = try TemporaryFolder()
        let database = folder.path("history.sqlite")
        try HistoryStore.open(path: database).runs.claimMode(.live)
        let result = try await Self.run(database, folder: folder)
        #expect(result.status == 2)
        #expect(result.error.contains("holds live-mode objects, but this run uses a test-mode key"), "\(result.error)")
        #expect(result.error.contains("another --db"))
        #expect(try HistoryStore.open(path: database).runs.list().isEmpty, "no run recorded against the other mode")
    }
}
