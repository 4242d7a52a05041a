import Foundation
import StripeAPI
import Synchronization

/// A transport that plays Stripe's Reporting API for the report runner, configurable per test, recording every
/// request. Requests may arrive concurrently (the runner runs both reports at once), so it answers by path, not
/// by order.
final class FakeReportingAPI: HTTPTransport, Sendable {
    /// How the fake behaves.
    struct Script: Sendable {
        var dataAvailableStart: Int64 = 0
        var dataAvailableEnd: Int64 = 2_000_000_000
        /// Answer to `GET /v1/reporting/report_types/:id`: a status and body, or nil for the report type.
        var typeError: (status: Int, body: String)?
        /// Answer to the create, or nil for a pending run.
        var createError: (status: Int, body: String)?
        /// Polls answered `pending` before the run is done; `nil`: never done.
        var pollsBeforeDone: Int? = 2
        /// The run's final status and error.
        var finalStatus = "succeeded"
        var finalError: String?
        /// The file URL for a run: the base URL and the file id by default.
        var fileURL: @Sendable (_ fileID: String) -> String = { "http://127.0.0.1:12111/v1/files/\($0)/contents" }
        /// The CSV for each report type.
        var csv: [String: String] = [
            "balance.summary.1": """
            category,description,net_amount,currency
            starting_balance,Starting balance,100.00,usd
            activity,Activity,-60.00,usd
            payouts,Payouts,-30.00,usd
            ending_balance,Ending balance,10.00,usd

            """,
            "balance_change_from_activity.summary.1": """
            reporting_category,currency,count,gross,fee,net
            charge,usd,2,20.00,1.00,19.00
            refund,usd,1,-79.00,0.00,-79.00

            """,
        ]
    }

    private let script: Script
    /// The requests so far, and how often each report run was polled.
    private let state = Mutex<(recorded: [HTTPRequest], polls: [String: Int])>(([], [:]))

    init(_ script: Script = Script()) { self.script = script }

    var requests: [HTTPRequest] { state.withLock { $0.recorded } }

    /// The requests whose method and path are these.
    func requests(_ method: HTTPRequest.Method, _ pathPrefix: String) -> [HTTPRequest] {
        requests.filter { $0.method == method && $0.url.path.hasPrefix(pathPrefix) }
    }

    /// The form fields of a POST, decoded.
    static func form(_ request: HTTPRequest) -> [(String, String)] {
        let text = String(decoding: request.body ?? Data(), as: UTF8.self)
        return text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).removingPercentEncoding ?? String($0)
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let path = request.url.path
        let (status, body, type, number) = state.withLock { state in
            state.recorded.append(request)
            let (status, body, type) = answer(request, path: path, polls: &state.polls)
            return (status, body, type, state.recorded.count)
        }
        return HTTPResponse(
            status: status, headers: ["request-id": "req_\(number)", "content-type": type],
            body: Data(body.utf8))
    }

    private func answer(_ request: HTTPRequest, path: String, polls: inout [String: Int]) -> (Int, String, String) {
        let json = "application/json"
        if path.hasPrefix("/v1/reporting/report_types/") {
            if let error = script.typeError { return (error.status, error.body, json) }
            let id = String(path.dropFirst("/v1/reporting/report_types/".count))
            return (
                200,
                #"{"id":"\#(id)","object":"reporting.report_type","data_available_start":\#(script.dataAvailableStart),"#
                    + #""data_available_end":\#(script.dataAvailableEnd),"default_columns":["a"],"livemode":false,"#
                    + #""name":"x","some_new_field":{"nested":true}}"#,
                json
            )
        }
        if path == "/v1/reporting/report_runs", request.method == .post {
            if let error = script.createError { return (error.status, error.body, json) }
            let type = Self.form(request).first { $0.0 == "report_type" }?.1 ?? "?"
            return (200, run(id: "frr_\(type)", type: type, status: "pending", file: nil), json)
        }
        if path.hasPrefix("/v1/reporting/report_runs/") {
            let id = String(path.dropFirst("/v1/reporting/report_runs/".count))
            let type = String(id.dropFirst(4))
            polls[id, default: 0] += 1
            guard let limit = script.pollsBeforeDone, polls[id, default: 0] > limit else {
                return (200, run(id: id, type: type, status: "pending", file: nil), json)
            }
            let fileID = "file_\(type.replacingOccurrences(of: ".", with: "_"))"
            return (200, run(id: id, type: type, status: script.finalStatus, file: fileID), json)
        }
        if path.hasPrefix("/v1/files/") {
            let fileID = path.split(separator: "/")[2]
            let type = fileID.dropFirst(5).replacingOccurrences(of: "_summary_1", with: ".summary.1")
            if let csv = script.csv[type] { return (200, csv, "text/csv") }
            return (404, #"{"error":{"type":"invalid_request_error","message":"No such file"}}"#, json)
        }
        return (404, #"{"error":{"type":"invalid_request_error","message":"Unrecognized request URL"}}"#, json)
    }

    private func run(id: String, type: String, status: String, file: String?) -> String {
        let result =
            file.map {
                #"{"id":"\#($0)","object":"file","size":100,"type":"csv","url":"\#(script.fileURL($0))"}"#
            } ?? "null"
        let error = script.finalError.map { "\"\($0)\"" } ?? "null"
        return
            #"{"id":"\#(id)","object":"reporting.report_run","created":1,"error":\#(status == "failed" ? error : "null"),"#
            + #""livemode":false,"parameters":{"currency":"usd","interval_start":0,"interval_end":86400},"#
            + #""report_type":"\#(type)","result":\#(result),"status":"\#(status)","succeeded_at":null}"#
    }
}
