import Foundation
import StripeAPI

/// What (h)'s recorded-bytes server answers a request with: the recorded response of the same target when there is
/// one; else, for a list, the recorded objects of the same list (same path, same filters and expansions) sliced to the
/// request's window, cursor and limit, each object's bytes as received; else, for a retrieve, an object of that id as
/// some recorded list or response held it. The extraction splits its windows by how fast pages come back, so a second
/// run asks for other windows than the first: their objects are the same, and so are their bytes.
///
/// That is all the logic it has: no world, no rendering, no expansion, nothing computed but the slice.
struct RecordedLists: Sendable {
    /// One object of a recorded list page.
    struct Item: Sendable {
        var id: String
        var created: Int64
        var bytes: Data
    }

    /// A list's recorded objects, newest first, and the headers of one of its pages.
    struct List: Sendable {
        var items: [Item]
        var headers: [String: String]
    }

    /// How a request was answered.
    enum Answer: Sendable {
        case recorded(RecordedResponse)
        case sliced(status: Int, headers: [String: String], body: Data)
        case missing
    }

    private let exact: [String: RecordedResponse]
    private let lists: [String: List]
    private let objects: [String: Data]

    /// The query parameters that choose a list's window and page, not which list it is.
    static let windowParameters: Set<String> = [
        "created[gte]", "created[gt]", "created[lt]", "created[lte]", "limit", "starting_after",
    ]

    init(_ responses: [RecordedResponse]) {
        var exact: [String: RecordedResponse] = [:]
        var lists: [String: List] = [:]
        var seen: [String: Set<String>] = [:]
        var objects: [String: Data] = [:]
        for response in responses {
            exact[response.target] = response
            guard response.status == 200, let tape = try? JSONTapeDecoder.tape(response.body) else { continue }
            let root = JSONTape.root
            guard let data = tape.member("data", of: root), tape.isArray(data) else {
                if let id = tape.member("id", of: root).flatMap(tape.string) { objects[id] = response.body }
                continue
            }
            let (path, filters, _) = Self.split(response.target)
            let key = Self.key(path, filters)
            var list = lists[key] ?? List(items: [], headers: response.headers)
            for element in tape.elements(of: data) {
                guard let id = tape.member("id", of: element).flatMap(tape.string),
                    let created = tape.member("created", of: element).flatMap({ Self.integer(tape, $0) }),
                    seen[key, default: []].insert(id).inserted
                else { continue }
                let bytes = Data(tape.bytes[tape.range(of: element)])
                list.items.append(Item(id: id, created: created, bytes: bytes))
                if objects[id] == nil { objects[id] = bytes }
            }
            lists[key] = list
        }
        // Newest first, as Stripe lists; the pages' own order among objects of the same second.
        for (key, list) in lists {
            lists[key]?.items = list.items.enumerated()
                .sorted { ($0.element.created, -$0.offset) > ($1.element.created, -$1.offset) }.map(\.element)
        }
        self.exact = exact
        self.lists = lists
        self.objects = objects
    }

    /// The answer to a request for `target`.
    func answer(_ target: String) -> Answer {
        if let response = exact[target] { return .recorded(response) }
        let (path, filters, window) = Self.split(target)
        if let list = lists[Self.key(path, filters)] { return slice(list, path: path, window: window) }
        // A retrieve (`/v1/charges/ch_…`): the object as it was recorded elsewhere.
        let id = String(path.split(separator: "/").last ?? "")
        if path.split(separator: "/").count == 3, let bytes = objects[id] {
            return .sliced(status: 200, headers: ["content-type": "application/json"], body: bytes)
        }
        return .missing
    }

    private func slice(_ list: List, path: String, window: [String: String]) -> Answer {
        let gte =
            window["created[gte]"].flatMap { Int64($0) } ?? window["created[gt]"].flatMap { Int64($0) }.map { $0 + 1 }
        let lt =
            window["created[lt]"].flatMap { Int64($0) } ?? window["created[lte]"].flatMap { Int64($0) }.map { $0 + 1 }
        var items = list.items.filter { item in
            gte.map { item.created >= $0 } ?? true && lt.map { item.created < $0 } ?? true
        }
        if let cursor = window["starting_after"] {
            guard let index = items.firstIndex(where: { $0.id == cursor }) else { return .missing }
            items = Array(items[(index + 1)...])
        }
        let limit = window["limit"].flatMap { Int($0) } ?? 10
        var body = Data(#"{"object":"list","data":["#.utf8)
        for (index, item) in items.prefix(limit).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(item.bytes)
        }
        body.append(Data(#"],"has_more":\#(items.count > limit),"url":"\#(path)"}"#.utf8))
        return .sliced(status: 200, headers: list.headers, body: body)
    }

    /// A target's path, its parameters that name the list (sorted), and those that choose the window.
    static func split(_ target: String) -> (path: String, filters: [String], window: [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1)
        let path = String(parts.first ?? "")
        var filters: [String] = []
        var window: [String: String] = [:]
        for pair in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let halves = pair.split(separator: "=", maxSplits: 1)
            let name = String(halves[0]).removingPercentEncoding ?? String(halves[0])
            let value = halves.count > 1 ? (String(halves[1]).removingPercentEncoding ?? String(halves[1])) : ""
            if windowParameters.contains(name) { window[name] = value } else { filters.append(name + "=" + value) }
        }
        return (path, filters.sorted(), window)
    }

    static func key(_ path: String, _ filters: [String]) -> String { ([path] + filters).joined(separator: "&") }

    private static func integer(_ tape: JSONTape, _ node: Int) -> Int64? {
        Int64(String(decoding: tape.bytes[tape.range(of: node)], as: UTF8.self))
    }
}
