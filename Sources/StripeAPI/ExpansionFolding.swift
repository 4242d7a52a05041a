import ReconCore

/// How an object's JSON is stored whatever a request expanded in it: each expanded reference folded back to
/// its id, members that only an expansion adds left out, and the items of its nested lists folded by their own
/// rule.
///
/// The same charge arrives with its PaymentIntent and transfer expanded in the charges list, with only its
/// PaymentIntent when retrieved by id, and inside a refund's `charge` when that was expanded. Stored as Stripe
/// renders it without expansions, it has the same bytes each time, so a change in the history means a change in
/// Stripe, never a change in what the request asked for. The expanded objects are stored under their own ids.
public struct ExpansionFolding: Sendable {
    /// Members whose expanded object is replaced by its `id`.
    public var references: Set<String>
    /// Members present only when a request expands them (`charge.refunds` since API version 2022-11-15).
    public var expansionOnly: Set<String>
    /// Nested lists (`transfer.reversals`) whose items are folded by their own rule.
    public var lists: [String: ExpansionFolding]

    public init(
        references: Set<String>, expansionOnly: Set<String> = [], lists: [String: ExpansionFolding] = [:]
    ) {
        self.references = references
        self.expansionOnly = expansionOnly
        self.lists = lists
    }

    /// The object at node `index` of `tape` as it is stored: see the type's description. The white space between
    /// tokens is removed (``JSONTape/write(_:into:)``); a value that is not an object is written as it is.
    public func fold(_ tape: JSONTape, _ index: Int) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(tape.range(of: index).count)
        if tape.isObject(index) {
            fold(tape, index, into: &output)
        } else {
            tape.write(index, into: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `json`, a whole document, as it is stored (see ``fold(_:_:)``); JSON that does not parse is returned as it
    /// is.
    public func fold(_ json: String) -> String {
        guard let tape = try? JSONTape(Array(json.utf8)) else { return json }
        return fold(tape, JSONTape.root)
    }

    private func fold(_ tape: JSONTape, _ index: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        var first = true
        for member in tape.members(of: index) {
            let value = member.value
            let isObject = tape.isObject(value)
            if !expansionOnly.isEmpty, expansionOnly.contains(where: { tape.keyEquals(member.key, $0) }) { continue }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            tape.appendBytes(of: member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            if isObject, references.contains(where: { tape.keyEquals(member.key, $0) }),
                let id = tape.member("id", of: value)
            {
                tape.write(id, into: &output)
            } else if isObject, let items = lists.first(where: { tape.keyEquals(member.key, $0.key) })?.value {
                items.foldList(tape, value, into: &output)
            } else {
                tape.write(value, into: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// A list object (`{"object":"list","data":[…],…}`) with each item of `data` folded by this rule.
    private func foldList(_ tape: JSONTape, _ index: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        var first = true
        for member in tape.members(of: index) {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            tape.appendBytes(of: member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            guard tape.keyEquals(member.key, "data"), tape.isArray(member.value) else {
                tape.write(member.value, into: &output)
                continue
            }
            output.append(UInt8(ascii: "["))
            for (position, item) in tape.elements(of: member.value).enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                if tape.isObject(item) {
                    fold(tape, item, into: &output)
                } else {
                    tape.write(item, into: &output)
                }
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension ExpansionFolding {
    /// The rule of `kind`, from its catalogue entry: its references fold to ids, its expansion-only lists are left
    /// out, its nested lists fold by their kind's rule.
    public static func of(_ kind: ObjectKind) -> ExpansionFolding {
        rules[kind] ?? ExpansionFolding(references: [])
    }

    private static let rules: [ObjectKind: ExpansionFolding] = Dictionary(
        uniqueKeysWithValues: ObjectKind.allCases.map { ($0, rule($0)) })

    private static func rule(_ kind: ObjectKind) -> ExpansionFolding {
        let entry = kind.entry
        return ExpansionFolding(
            references: Set(entry.references.map(\.member)),
            expansionOnly: Set(entry.lists.filter(\.expansionOnly).map(\.member)),
            lists: Dictionary(
                uniqueKeysWithValues: entry.lists.filter { !$0.expansionOnly }.map { ($0.member, rule($0.kind)) }))
    }
}
