import ReconCore

// Stripe's Reporting API over the world: the two balance summary report types, report runs and their files.

extension Router {
    /// `POST /v1/reporting/report_runs`: the one request that is not a GET.
    static let createReportRunEndpoint = "POST /v1/reporting/report_runs"

    /// The endpoint names of `/v1/reporting/…` and `/v1/files/…`, `unknown` for anything else under them.
    static func reportingEndpointName(method: String, segments: [String]) -> String {
        switch (method, segments.count, segments[1], segments.count > 2 ? segments[2] : "") {
        case ("GET", 4, "reporting", "report_types"): "GET /v1/reporting/report_types/:id"
        case ("POST", 3, "reporting", "report_runs"): createReportRunEndpoint
        case ("GET", 4, "reporting", "report_runs"): "GET /v1/reporting/report_runs/:id"
        case ("GET", 4, "files", _) where segments[3] == "contents": "GET /v1/files/:id/contents"
        default: "unknown"
        }
    }

    /// Answers a routed `/v1/reporting/…` or `/v1/files/…` request.
    func respondReporting(_ request: RoutedRequest) -> SandboxResponse {
        let segments = request.segments
        do {
            switch request.endpoint {
            case "GET /v1/reporting/report_types/:id":
                try checkParameters(request.query, allowed: [])
                return try reportType(segments[3])
            case Router.createReportRunEndpoint:
                let form = QueryString.parse(String(decoding: request.body, as: UTF8.self))
                return try createReportRun(form)
            case "GET /v1/reporting/report_runs/:id":
                try checkParameters(request.query, allowed: [])
                return try reportRun(segments[3])
            default:
                try checkParameters(request.query, allowed: [])
                return try fileContents(segments[2])
            }
        } catch let failure as RequestFailure {
            return failure.response
        } catch {
            return self.error(500, type: "api_error", message: "An unknown error occurred.")
        }
    }

    // MARK: Report types

    private func reportType(_ id: String) throws(RequestFailure) -> SandboxResponse {
        guard let type = SandboxReportType(rawValue: id) else {
            throw RequestFailure(
                response: error(
                    404, type: "invalid_request_error", code: "resource_missing",
                    message: "No such report type: '\(id.prefix(100))'", param: "id"))
        }
        let writer = JSONWriter(ids: storage.ids, capacity: 512)
        writer.object {
            writer.field("data_available_end", SandboxReportType.dataAvailableEnd(storage))
            writer.field("data_available_start", SandboxReportType.dataAvailableStart(storage))
            writer.arrayField("default_columns") { for column in type.columns { writer.string(column) } }
            writer.field("id", type.rawValue)
            writer.field("livemode", false)
            writer.field("name", type.name)
            writer.field("object", "reporting.report_type")
            writer.field("updated", SandboxReportType.dataAvailableEnd(storage))
            writer.field("version", Int64(1))
        }
        return SandboxResponse(status: 200, body: writer.bytes)
    }

    // MARK: Report runs

    private func createReportRun(_ form: [(String, String)]) throws(RequestFailure) -> SandboxResponse {
        let allowed: Set<String> = [
            "report_type", "parameters[interval_start]", "parameters[interval_end]", "parameters[currency]",
            "parameters[columns][]",
        ]
        if let unknown = form.first(where: { !allowed.contains($0.0) }) {
            throw invalid("Received unknown parameter: \(unknown.0.prefix(100))", param: unknown.0)
        }
        func value(_ name: String) -> String? { form.last { $0.0 == name }?.1 }
        guard let typeName = value("report_type") else {
            throw invalid("Missing required param: report_type.", param: "report_type")
        }
        guard let type = SandboxReportType(rawValue: typeName) else {
            throw invalid(
                "The report type '\(typeName.prefix(100))' is not available: this sandbox serves "
                    + SandboxReportType.allCases.map(\.rawValue).joined(separator: " and ") + ".",
                param: "report_type")
        }
        let start = try integer(value("parameters[interval_start]"), "parameters[interval_start]")
        let end = try integer(value("parameters[interval_end]"), "parameters[interval_end]")
        let availableStart = SandboxReportType.dataAvailableStart(storage)
        let availableEnd = SandboxReportType.dataAvailableEnd(storage)
        guard start < end else {
            throw invalid(
                "parameters[interval_start] (\(start)) must be before parameters[interval_end] (\(end)).",
                param: "parameters[interval_start]")
        }
        guard start >= availableStart else {
            throw invalid(
                "parameters[interval_start] must be at or after the report type's data_available_start "
                    + "(\(availableStart)).", param: "parameters[interval_start]")
        }
        guard end <= availableEnd else {
            throw invalid(
                "parameters[interval_end] must be at or before the report type's data_available_end "
                    + "(\(availableEnd)).", param: "parameters[interval_end]")
        }
        guard let code = value("parameters[currency]") else {
            throw invalid(
                "Missing required param: parameters[currency] (the sandbox reports one currency per run).",
                param: "parameters[currency]")
        }
        guard let currency = WorldCurrency.allCases.first(where: { $0.code == code.lowercased() }) else {
            throw invalid(
                "Invalid currency: \(code.prefix(10)). The sandbox's world holds "
                    + WorldCurrency.allCases.map(\.code).joined(separator: ", ") + ".",
                param: "parameters[currency]")
        }
        var columns = form.filter { $0.0 == "parameters[columns][]" }.map(\.1)
        if columns.isEmpty { columns = type.columns }
        if let unknown = columns.first(where: { !type.columns.contains($0) }) {
            throw invalid(
                "The column '\(unknown.prefix(60))' is not a column of \(type.rawValue): "
                    + type.columns.joined(separator: ", ") + ".", param: "parameters[columns]")
        }
        let now = storage.end
        let run = reportRuns.create { number in
            ReportRunTable.Run(
                number: number, type: type, intervalStart: start, intervalEnd: end, currency: currency,
                columns: columns, created: now)
        }
        return renderRun(run, status: .pending)
    }

    private func reportRun(_ id: String) throws(RequestFailure) -> SandboxResponse {
        let storage = storage
        guard let number = ReportRunTable.number(runID: id),
            let polled = reportRuns.poll(
                number,
                file: { run in
                    let figures = BalanceReportFigures(
                        storage: storage, currency: run.currency, start: run.intervalStart, end: run.intervalEnd)
                    return run.type.csv(
                        figures, currency: run.currency, columns: run.columns, offsets: reportLineOffsets)
                })
        else {
            throw RequestFailure(
                response: error(
                    404, type: "invalid_request_error", code: "resource_missing",
                    message: "No such reporting.report_run: '\(id.prefix(100))'", param: "id"))
        }
        return renderRun(polled.run, status: polled.status)
    }

    private func renderRun(_ run: ReportRunTable.Run, status: ReportRunTable.Status) -> SandboxResponse {
        let writer = JSONWriter(ids: storage.ids, capacity: 1_024)
        writer.object {
            writer.field("created", run.created)
            if status == .failed {
                writer.field(
                    "error", "The report run failed (the sandbox's report failure option is on). Try again later.")
            } else {
                writer.nullField("error")
            }
            writer.field("id", ReportRunTable.runID(run.number))
            writer.field("livemode", false)
            writer.field("object", "reporting.report_run")
            writer.field("parameters") {
                writer.arrayField("columns") { for column in run.columns { writer.string(column) } }
                writer.field("currency", run.currency.code)
                writer.field("interval_end", run.intervalEnd)
                writer.field("interval_start", run.intervalStart)
            }
            writer.field("report_type", run.type.rawValue)
            if status == .succeeded, let file = run.file {
                let fileID = ReportRunTable.fileID(run.number)
                writer.field("result") {
                    writer.field("created", run.created)
                    writer.field("expires_at", run.created + 7 * 86_400)
                    writer.field("filename", "\(ReportRunTable.runID(run.number)).csv")
                    writer.field("id", fileID)
                    writer.field("object", "file")
                    writer.field("purpose", "finance_report_run")
                    writer.field("size", Int64(file.count))
                    writer.nullField("title")
                    writer.field("type", "csv")
                    writer.field("url", "\(reportRuns.baseURL)/v1/files/\(fileID)/contents")
                }
                writer.field("status", "succeeded")
                writer.field("succeeded_at", run.created)
            } else {
                writer.nullField("result")
                writer.field("status", status == .failed ? "failed" : "pending")
                writer.nullField("succeeded_at")
            }
        }
        return SandboxResponse(status: 200, body: writer.bytes)
    }

    // MARK: Files

    private func fileContents(_ id: String) throws(RequestFailure) -> SandboxResponse {
        guard let number = ReportRunTable.number(fileID: id), let file = reportRuns.file(number) else {
            throw RequestFailure(
                response: error(
                    404, type: "invalid_request_error", code: "resource_missing",
                    message: "No such file upload: '\(id.prefix(100))'", param: "id"))
        }
        return SandboxResponse(status: 200, body: file, contentType: "text/csv")
    }

    // MARK: Parameters

    private func invalid(_ message: String, param: String) -> RequestFailure {
        RequestFailure(response: error(400, type: "invalid_request_error", message: message, param: param))
    }

    private func integer(_ text: String?, _ name: String) throws(RequestFailure) -> Int64 {
        guard let text else { throw invalid("Missing required param: \(name).", param: name) }
        guard let value = Int64(text) else {
            throw invalid("Invalid integer: \(text.prefix(30))", param: name)
        }
        return value
    }
}
