import Foundation
import ReconCore
import Reports
import TestSupport
import Testing

/// The report columns a user relies on are documented where a user reads them: the README's table and
/// docs/REPORTS.md's, both held here to the header each writer writes, file by file, in order.
@Suite("Documented report columns")
struct DocumentedColumnsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `file → columns` of a markdown table whose rows read ``| `file.csv` | … | `a, b, c` … |``.
    static func documentedColumns(_ path: String) throws -> [String: [String]] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        var columns: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") && line.contains(".csv` |") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let file = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard let list = cells[2].split(separator: "`").first else { continue }
            columns[file] = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return columns
    }

    @Test(arguments: ["README.md", "docs/REPORTS.md"])
    func everyFilesColumnsAreDocumentedInOrder(document: String) throws {
        let scratch = try TemporaryFolder()
        let metadata = ReportMetadata(
            range: try ReportingRange(
                from: Date(timeIntervalSince1970: 1_795_132_800), to: Date(timeIntervalSince1970: 1_795_219_200),
                timeZone: TimeZone(identifier: "UTC")!),
            runID: 1, startedAt: 0, finishedAt: 0, command: "run", toolVersion: "test", stripeVersion: "test",
            mode: .test, apiBase: "http://127.0.0.1")
        let files = try ReportWriter.write(ReconciliationReport(), metadata: metadata, to: scratch.url)
        let documented = try Self.documentedColumns(document)
        #expect(documented.count == files.csvFiles.count, "\(document) documents every file")
        for file in files.csvFiles {
            let header = try String(contentsOf: file.url, encoding: .utf8).prefix { $0 != "\n" }
            #expect(
                documented[file.name] == header.split(separator: ",").map(String.init),
                "\(document): the columns of \(file.name)")
        }
    }
}
