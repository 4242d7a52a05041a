import CDeflateLevel
import Foundation

/// What ``ReportWriter/write(_:metadata:to:)`` wrote, at its final place.
public struct ReportFiles: Sendable, Hashable {
    /// One written CSV file.
    public struct CSVFile: Sendable, Hashable {
        /// The file name, for example `platform_fees.csv`.
        public var name: String
        public var url: URL
        /// SHA-256 of the file's bytes, lower-case hex (also on the workbook's Run sheet).
        public var sha256: String
        public var byteCount: Int
        /// Data rows, header not counted.
        public var rowCount: Int
    }

    /// `<out>/<range.folderName>/`.
    public var folder: URL
    /// The nine CSV files in docs/REPORTS.md's order.
    public var csvFiles: [CSVFile]
    /// `reconciliation_<from>_<to>.xlsx`.
    public var workbook: URL
    /// The workbook's sheets in order (continuation sheets such as `Ledger (2)` included).
    public var sheetNames: [String]
    /// Amount cells whose currency's decimals are unknown, written as `minor units: N` text instead of a
    /// number (each such amount is counted once, though it appears in a CSV and in the workbook).
    public var amountsWithUnknownDecimals: Int
    /// The level the workbook was zipped at when `CDeflateLevel`'s override set it (1: zlib's, or igzip's where the zip
    /// runs in pieces, ``workbookZipCompressor``); `nil` when it was not
    /// active (another system, or the executable does not export `deflateInit2_`) and the zip ran at zlib's default.
    public var workbookZipLevel: Int32?

    /// How many threads zip a workbook while `CDeflateLevel`'s override is active: the cores online, at most 8 (1: zlib
    /// zips it alone, on one core or another system).
    public static var workbookZipThreads: Int { Int(deflate_level_threads()) }

    /// Who compresses a workbook's sheets at ``workbookZipLevel`` while `CDeflateLevel`'s override is active: "igzip"
    /// (ISA-L's, at its level 1) where the zip runs on several threads, "zlib" where zlib zips alone.
    public static var workbookZipCompressor: String { String(cString: deflate_level_compressor()) }

    /// The CSV file called `name`, if written.
    public func csvFile(named name: String) -> CSVFile? { csvFiles.first { $0.name == name } }
}
