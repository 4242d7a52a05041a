import Foundation

/// A part of one of Stripe's example objects, stored as its JSON text and written back the way the sandbox writes
/// JSON: members sorted by key, two-space indents. Members whose dotted path (`card.overcapture.status`) is the raw
/// value of a `Field` are left to the caller, who writes what differs per object; every other member is written as
/// the fixture has it.
struct FixtureTemplate<Field: RawRepresentable & CaseIterable & Sendable>: Sendable where Field.RawValue == String {
    /// A JSON value of the fixture.
    indirect enum Value: Sendable, Decodable {
        case null
        case bool(Bool)
        case int(Int64)
        case string(String)
        /// Members sorted by key.
        case object([(key: String, value: Value)])
        case array([Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? container.decode(Int64.self) {
                self = .int(int)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let members = try? container.decode([String: Value].self) {
                self = .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
            } else {
                self = .array(try container.decode([Value].self))
            }
        }
    }

    /// The fixture with each `Field`'s member marked.
    private indirect enum Node: Sendable {
        case literal(Value)
        case field(Field)
        case object([(key: String, node: Node)])
    }

    /// A `Field` whose path the fixture does not have.
    struct MissingFields: Error, CustomStringConvertible {
        var paths: [String]
        var description: String { "The fixture has no member at \(paths.joined(separator: ", "))." }
    }

    private let root: Node

    /// Parses `json`; throws ``MissingFields`` when a `Field`'s path is not in it.
    init(json: String) throws {
        let value = try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        var found: Set<String> = []
        root = Self.node(value, path: "", found: &found)
        let missing = Field.allCases.map(\.rawValue).filter { !found.contains($0) }
        guard missing.isEmpty else { throw MissingFields(paths: missing) }
    }

    private static func node(_ value: Value, path: String, found: inout Set<String>) -> Node {
        if let field = Field(rawValue: path) {
            found.insert(path)
            return .field(field)
        }
        guard case .object(let members) = value else { return .literal(value) }
        return .object(
            members.map { member in
                let memberPath = path.isEmpty ? member.key : path + "." + member.key
                return (key: member.key, node: node(member.value, path: memberPath, found: &found))
            })
    }

    /// Writes the fixture as one JSON value; `field` writes the value of each `Field`'s member (its key is written).
    func write(to writer: JSONWriter, field: (Field) -> Void) {
        Self.write(root, to: writer, field: field)
    }

    private static func write(_ node: Node, to writer: JSONWriter, field: (Field) -> Void) {
        switch node {
        case .field(let name): field(name)
        case .literal(let value): write(value, to: writer)
        case .object(let members):
            writer.object {
                for member in members {
                    writer.key(member.key)
                    write(member.node, to: writer, field: field)
                }
            }
        }
    }

    private static func write(_ value: Value, to writer: JSONWriter) {
        switch value {
        case .null: writer.null()
        case .bool(let bool): writer.bool(bool)
        case .int(let int): writer.int(int)
        case .string(let string): writer.string(string)
        case .object(let members):
            writer.object {
                for member in members {
                    writer.key(member.key)
                    write(member.value, to: writer)
                }
            }
        case .array(let elements):
            writer.array {
                for element in elements { write(element, to: writer) }
            }
        }
    }
}
