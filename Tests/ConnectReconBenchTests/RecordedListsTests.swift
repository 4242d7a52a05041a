import Foundation
import Testing

@testable import ConnectReconBench

/// (h)'s recorded-bytes server answers another run's windows with the objects and bytes the first run received
/// (docs/BENCHMARKS.md, "The extraction's CPU against a server that is not the sandbox").
@Suite struct RecordedListsTests {
    static func item(_ id: String, _ created: Int) -> String {
        #"{"id":"\#(id)","object":"charge","created":\#(created)}"#
    }

    static func page(_ items: [String], more: Bool) -> Data {
        Data(
            #"{"object":"list","data":[\#(items.joined(separator: ", "))],"has_more":\#(more),"url":"/v1/charges"}"#
                .utf8)
    }

    /// A week's charges listed in two pages, newest first, and one charge retrieved on its own.
    static let recording = RecordedLists([
        RecordedResponse(
            target: "/v1/charges?limit=2&created%5Bgte%5D=0&created%5Blt%5D=100&expand%5B%5D=data.transfer",
            status: 200, headers: ["request-id": "req_1"],
            body: page([item("ch_5", 50), item("ch_4", 40)], more: true)),
        RecordedResponse(
            target:
                "/v1/charges?limit=2&created%5Bgte%5D=0&created%5Blt%5D=100&starting_after=ch_4&expand%5B%5D=data.transfer",
            status: 200, headers: ["request-id": "req_2"],
            body: page([item("ch_3", 30), item("ch_2", 20)], more: false)),
        RecordedResponse(
            target: "/v1/payment_intents/pi_1", status: 200, headers: [:],
            body: Data(#"{"id":"pi_1","object":"payment_intent","created":10}"#.utf8)),
    ])

    func body(_ answer: RecordedLists.Answer) -> String? {
        switch answer {
        case .recorded(let response): String(decoding: response.body, as: UTF8.self)
        case .sliced(_, _, let body): String(decoding: body, as: UTF8.self)
        case .missing: nil
        }
    }

    @Test func aRecordedTargetIsAnsweredWithItsBytes() {
        let target = "/v1/charges?limit=2&created%5Bgte%5D=0&created%5Blt%5D=100&expand%5B%5D=data.transfer"
        guard case .recorded(let response) = Self.recording.answer(target) else {
            Issue.record("not answered from the recording")
            return
        }
        #expect(response.headers["request-id"] == "req_1")
    }

    @Test func anotherWindowOfTheSameListIsCutFromItsObjects() {
        // The window [25, 45) of the same list and expansions, its parameters in another order
        let window = "/v1/charges?expand%5B%5D=data.transfer&created%5Bgte%5D=25&created%5Blt%5D=45&limit=100"
        #expect(
            body(Self.recording.answer(window))
                == #"{"object":"list","data":[\#(Self.item("ch_4", 40)),\#(Self.item("ch_3", 30))],"#
                + #""has_more":false,"url":"/v1/charges"}"#)
        // a page of one, and the next after its cursor
        let first = "/v1/charges?limit=1&created%5Bgte%5D=25&created%5Blt%5D=45&expand%5B%5D=data.transfer"
        #expect(body(Self.recording.answer(first))?.contains(#""has_more":true"#) == true)
        #expect(body(Self.recording.answer(first + "&starting_after=ch_4"))?.contains(#""id":"ch_3""#) == true)
    }

    @Test func aListWithOtherExpansionsOrAnUnknownCursorIsNotInTheRecording() {
        #expect(body(Self.recording.answer("/v1/charges?limit=100&created%5Bgte%5D=0&created%5Blt%5D=100")) == nil)
        #expect(
            body(
                Self.recording.answer(
                    "/v1/charges?limit=1&created%5Bgte%5D=0&created%5Blt%5D=100&expand%5B%5D=data.transfer"
                        + "&starting_after=ch_9")) == nil)
    }

    @Test func aRetrieveIsAnsweredWithTheObjectAsRecordedElsewhere() {
        #expect(body(Self.recording.answer("/v1/charges/ch_3")) == Self.item("ch_3", 30))
        #expect(body(Self.recording.answer("/v1/payment_intents/pi_1"))?.contains(#""pi_1""#) == true)
        #expect(body(Self.recording.answer("/v1/charges/ch_9")) == nil)
    }

    @Test func theRecordingFileReadsBackWhatWasWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("week.recording")
        let written = [
            RecordedResponse(
                target: "/v1/balance", status: 200, headers: ["date": "Sun, 29 Nov 2026 03:00:00 GMT", "a": "b"],
                body: Data("{}".utf8)),
            RecordedResponse(target: "/v1/charges/ch_1", status: 404, headers: [:], body: Data()),
        ]
        try RecordingFile.write(written, to: file)
        let read = try RecordingFile.read(file)
        #expect(read.map(\.target) == written.map(\.target))
        #expect(read.map(\.status) == [200, 404])
        #expect(read.map(\.headers) == written.map(\.headers))
        #expect(read.map(\.body) == written.map(\.body))
        // and a cut file is an error, not a crash
        try Data(try Data(contentsOf: file).dropLast(3)).write(to: file)
        #expect(throws: BenchError.self) { try RecordingFile.read(file) }
    }
}
