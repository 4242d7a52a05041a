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

    /// `json` (compacted) as it is stored: see the type's description. JSON that is not an object is returned
    /// as it is; the decoder has judged it already.
    public func fold(_ json: String) -> String {
        let bytes = Array(json.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        guard (try? fold(bytes, 0..<bytes.count, into: &output)) != nil else { return json }
        return String(decoding: output, as: UTF8.self)
    }

    private func fold(_ bytes: [UInt8], _ range: Range<Int>, into output: inout [UInt8]) throws(JSONSlicer.Failure) {
        let members = try JSONSlicer.orderedMembers(of: bytes, in: range)
        output.append(UInt8(ascii: "{"))
        var first = true
        for member in members where !expansionOnly.contains(member.key) {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            output += bytes[member.keyRange]
            output.append(UInt8(ascii: ":"))
            let value = member.value
            let isObject = !value.isEmpty && bytes[value.lowerBound] == UInt8(ascii: "{")
            if isObject, references.contains(member.key),
                let id = try JSONSlicer.orderedMembers(of: bytes, in: value).first(where: { $0.key == "id" })
            {
                output += bytes[id.value]
            } else if isObject, let items = lists[member.key] {
                try items.foldList(bytes, value, into: &output)
            } else {
                output += Array(JSONSlicer.compact(bytes, value).utf8)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// A list object (`{"object":"list","data":[…],…}`) with each item of `data` folded by this rule.
    private func foldList(_ bytes: [UInt8], _ range: Range<Int>, into output: inout [UInt8]) throws(JSONSlicer.Failure)
    {
        let members = try JSONSlicer.orderedMembers(of: bytes, in: range)
        output.append(UInt8(ascii: "{"))
        for (position, member) in members.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output += bytes[member.keyRange]
            output.append(UInt8(ascii: ":"))
            guard member.key == "data", !member.value.isEmpty, bytes[member.value.lowerBound] == UInt8(ascii: "[")
            else {
                output += Array(JSONSlicer.compact(bytes, member.value).utf8)
                continue
            }
            output.append(UInt8(ascii: "["))
            for (index, item) in try JSONSlicer.elements(of: bytes, in: member.value).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if bytes[item.lowerBound] == UInt8(ascii: "{") {
                    try fold(bytes, item, into: &output)
                } else {
                    output += Array(JSONSlicer.compact(bytes, item).utf8)
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
