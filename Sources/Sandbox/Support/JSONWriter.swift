/// Writes JSON the way Stripe's API does: pretty-printed with two-space indents, keys in the order written,
/// `{}` and `[]` for empty containers. Single-threaded, one per response.
final class JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var counts: [Int] = []  // members written so far, per open container
    private var afterKey = false
    let ids: StripeIDCodec
    /// Objects written because a request expanded them (an expanded reference, an item of an expanded list):
    /// the sandbox charges its per-expanded-object latency for each.
    var expandedObjects = 0

    init(ids: StripeIDCodec, capacity: Int = 4096) {
        self.ids = ids
        bytes.reserveCapacity(capacity)
    }

    // MARK: Containers

    func object(_ body: () -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        counts.append(0)
        body()
        close(UInt8(ascii: "}"))
    }

    func array(_ body: () -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        counts.append(0)
        body()
        close(UInt8(ascii: "]"))
    }

    private func close(_ bracket: UInt8) {
        let count = counts.removeLast()
        if count > 0 {
            bytes.append(UInt8(ascii: "\n"))
            indent()
        }
        bytes.append(bracket)
    }

    private func indent() {
        for _ in 0..<counts.count {
            bytes.append(0x20)
            bytes.append(0x20)
        }
    }

    /// Starts a member of the current container: a key in an object, or an element in an array.
    private func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard !counts.isEmpty else { return }
        if counts[counts.count - 1] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[counts.count - 1] += 1
        bytes.append(UInt8(ascii: "\n"))
        indent()
    }

    func key(_ name: StaticString) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":"), 0x20])
        afterKey = true
    }

    func key(_ name: String) {
        beginValue()
        appendQuoted(name)
        bytes.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        afterKey = true
    }

    // MARK: Scalars

    func string(_ value: String) {
        beginValue()
        appendQuoted(value)
    }

    func int(_ value: Int64) {
        beginValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    func bool(_ value: Bool) {
        beginValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    func null() {
        beginValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// A number already formatted (exchange rates are kept as integers and written as decimals).
    func rawNumber(_ text: String) {
        beginValue()
        bytes.append(contentsOf: text.utf8)
    }

    func id(_ kind: StripeIDKind, _ index: Int) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        ids.append(kind, index, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    private func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: Members (key + value)

    func field(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    func field(_ name: StaticString, _ value: Int64?) {
        key(name)
        if let value { int(value) } else { null() }
    }

    func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    func nullField(_ name: StaticString) {
        key(name)
        null()
    }

    func field(_ name: StaticString, id kind: StripeIDKind, _ index: Int) {
        key(name)
        id(kind, index)
    }

    /// An id, or null when `index` is negative.
    func field(_ name: StaticString, optionalID kind: StripeIDKind, _ index: Int32) {
        key(name)
        if index >= 0 { id(kind, Int(index)) } else { null() }
    }

    func field(_ name: StaticString, object body: () -> Void) {
        key(name)
        object(body)
    }

    func arrayField(_ name: StaticString, _ body: () -> Void) {
        key(name)
        array(body)
    }

    func emptyObject(_ name: StaticString) {
        key(name)
        object {}
    }
}
