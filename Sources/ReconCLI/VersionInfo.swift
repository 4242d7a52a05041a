import CurlTransport
import History
import Reports

/// `connect-recon --version`: the tool's version and the C libraries it runs on.
enum VersionInfo {
    static let tool = "0.1.0"

    static var text: String {
        "connect-recon \(tool) (libcurl \(CurlLibrary.version), libxlsxwriter \(XLSXLibrary.version), "
            + "SQLite \(HistoryLibrary.sqliteVersion), libpq \(HistoryLibrary.libpqVersion))"
    }
}
