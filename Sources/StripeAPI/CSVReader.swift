/// Reads comma-separated values as RFC 4180 writes them: fields in double quotes may hold commas, line breaks and
/// doubled quotes (`""` is one `"`); records end with CRLF or LF; a final line break is optional.
///
/// A UTF-8 byte order mark at the start is skipped and blank lines are ignored. Bytes that are not UTF-8 are read as
/// the replacement character.
public enum CSVReader {
    /// Why a text is not CSV; `record` is 1-based, the header included.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var record: Int
        public var detail: String

        public var description: String { "record \(record): \(detail)" }
    }

    /// The records of `bytes`, each a list of fields.
    public static func records(_ bytes: some Collection<UInt8>) throws(Problem) -> [[String]] {
        var input = Array(bytes)
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input.removeFirst(3) }
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")

        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        /// Whether the current field was quoted (then it exists even when empty).
        var quoted = false
        var index = 0

        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            let blank = record.isEmpty && field.isEmpty && !quoted
            endField()
            quoted = false
            if !blank { records.append(record) }
            record.removeAll(keepingCapacity: true)
        }
        func problem(_ detail: String) -> Problem { Problem(record: records.count + 1, detail: detail) }

        while index < input.count {
            let byte = input[index]
            if byte == quote && field.isEmpty && !quoted {
                // A quoted field: up to the closing quote, `""` standing for one quote.
                quoted = true
                index += 1
                var closed = false
                while index < input.count {
                    if input[index] == quote {
                        if index + 1 < input.count && input[index + 1] == quote {
                            field.append(quote)
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    field.append(input[index])
                    index += 1
                }
                guard closed else { throw problem("a quoted field is not closed") }
                // Only a separator or the end may follow the closing quote.
                let next = index < input.count ? input[index] : lf
                let crlf = next == cr && index + 1 < input.count && input[index + 1] == lf
                guard next == comma || next == lf || crlf else {
                    throw problem("a quoted field is followed by text before the next comma")
                }
                continue
            }
            switch byte {
            case comma:
                endField()
                quoted = false
                index += 1
            case lf:
                endRecord()
                index += 1
            case cr where index + 1 < input.count && input[index + 1] == lf:
                endRecord()
                index += 2
            case quote:
                throw problem("a double quote inside a field that does not start with one")
            default:
                field.append(byte)
                index += 1
            }
        }
        if !field.isEmpty || !record.isEmpty || quoted { endRecord() }
        return records
    }
}
