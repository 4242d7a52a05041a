import Crypto
import ReconCore

/// Writes one CSV file exactly as docs/REPORTS.md says: RFC 4180 quoting (a field with a comma, quote, CR or LF is
/// quoted and its quotes doubled), UTF-8 without a byte-order mark, a header row, `\n` line ends, amounts in
/// major units with exactly the currency's decimals and no thousands separators, times in UTC.
///
/// Rows stream through a 1 MiB buffer; the SHA-256 of the bytes is computed on the way out.
struct CSVWriter: ~Copyable {
    private let file: OwnedFileDescriptor
    private var buffer = ByteBuffer(capacity: Self.flushThreshold + 4096)
    private var hasher = SHA256()
    private(set) var byteCount = 0
    private(set) var unknownDecimals = 0
    private static let flushThreshold = 1 << 20

    init(path: String) throws(ReportError) {
        file = try OwnedFileDescriptor.create(path)
    }

    /// Writes one record: the fields separated by commas, then `\n`.
    mutating func writeRecord(_ cells: [Cell]) throws(ReportError) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            append(cell)
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes every row of `table`, in order.
    mutating func writeRows(_ table: ReportTable) throws(ReportError) {
        var cells: [Cell] = []
        cells.reserveCapacity(table.columns.count)
        for index in 0..<table.rowCount {
            cells.removeAll(keepingCapacity: true)
            table.fill(index, &cells)
            try writeRecord(cells)
        }
    }

    /// Writes the header row.
    mutating func writeHeader(_ columns: [Column]) throws(ReportError) {
        try writeRecord(columns.map { .text($0.name) })
    }

    /// Flushes and closes the file, its writing to the disk started but not waited for (the report syncs every file
    /// before it is put in place, after the workbook: docs/BENCHMARKS.md, "The sheets' rows joined, not copied");
    /// returns the SHA-256 of everything written, lower-case hex.
    consuming func finish() throws(ReportError) -> (sha256: String, byteCount: Int, unknownDecimals: Int) {
        try flush()
        file.startWriteback()
        let digest = hasher.finalize()
        let result = (Self.hex(digest), byteCount, unknownDecimals)
        try file.close()
        return result
    }

    private mutating func flush() throws(ReportError) {
        guard !buffer.isEmpty else { return }
        var hasher = self.hasher
        let descriptor = file.raw
        let path = file.path
        let failure = buffer.withBytes { bytes -> ReportError? in
            hasher.update(bufferPointer: UnsafeRawBufferPointer(bytes))
            do throws(ReportError) {
                try OwnedFileDescriptor.write(UnsafeRawBufferPointer(bytes), to: descriptor, path: path)
                return nil
            } catch {
                return error
            }
        }
        self.hasher = hasher
        if let failure { throw failure }
        byteCount += buffer.count
        buffer.removeAll()
    }

    private mutating func append(_ cell: Cell) {
        switch cell {
        case .text(let text):
            appendText(FormulaGuard.neutralised(text))
        case .amount(let minorUnits, let currency):
            if let exponent = CellText.exponent(of: currency) {
                MinorUnitFormatter.append(minorUnits, exponent: exponent, to: &buffer)
            } else {
                unknownDecimals += 1
                appendText(CellText.unknownDecimals(minorUnits))
            }
        case .count(let count):
            Int64(count).appendDecimalDigits(to: &buffer)
        case .time(let unixSeconds):
            UTCTimestamp.append(unixSeconds, to: &buffer)
        case .seconds(let seconds):
            for byte in String(seconds).utf8 { buffer.append(byte) }
        case .empty:
            break
        }
    }

    /// RFC 4180: quote a field containing a comma, a quote, CR or LF, doubling its quotes.
    private mutating func appendText(_ text: String) {
        func needsQuotes(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
        }
        // The common case on the text's bytes where they are: checked and copied at once.
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: needsQuotes) else { return false }
            buffer.append(contentsOf: utf8)
            return true
        }
        if copied == true { return }
        let utf8 = text.utf8
        guard utf8.contains(where: needsQuotes) else {
            for byte in utf8 { buffer.append(byte) }
            return
        }
        buffer.append(UInt8(ascii: "\""))
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            buffer.append(byte)
        }
        buffer.append(UInt8(ascii: "\""))
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8]()
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
