import ReconCore
import Testing

@testable import Reports

/// ``ByteBuffer``: the bytes of a report's rows, appended without an array's checks.
@Suite struct ByteBufferTests {
    /// The buffer's bytes, as an array.
    private func bytes(of buffer: borrowing ByteBuffer) -> [UInt8] {
        buffer.withBytes { Array($0) }
    }

    @Test func bytesAppendedPastItsCapacityAreAllKeptInOrder() {
        // Given a buffer of 16 bytes and an array, each given the same appends, far more than 16 bytes
        var buffer = ByteBuffer(capacity: 16)
        var array: [UInt8] = []
        for index in 0..<500 {
            let text = Array("cell \(index);".utf8)
            text.withUnsafeBufferPointer {
                buffer.append(contentsOf: $0)
                array.append(contentsOf: $0)
            }
            buffer.append(UInt8(truncatingIfNeeded: index))
            array.append(UInt8(truncatingIfNeeded: index))
            UInt64(index).appendDecimalDigits(minimumWidth: 4, to: &buffer)
            UInt64(index).appendDecimalDigits(minimumWidth: 4, to: &array)
            MinorUnitFormatter.append(Int64(-index) * 1_001, exponent: 3, to: &buffer)
            MinorUnitFormatter.append(Int64(-index) * 1_001, exponent: 3, to: &array)
        }
        buffer.append("</row>")
        array.append(contentsOf: "</row>".utf8)
        // Then the buffer holds what the array holds
        let count = buffer.count
        #expect(count == array.count)
        #expect(bytes(of: buffer) == array)
    }

    @Test func removingAllLeavesNoBytesAndTheNextAppendsStartAfresh() {
        var buffer = ByteBuffer(capacity: 4)
        buffer.append("<row r=\"1\">")
        buffer.removeAll()
        let isEmpty = buffer.isEmpty
        #expect(isEmpty)
        #expect(bytes(of: buffer) == [])
        buffer.append("<c/>")
        #expect(bytes(of: buffer) == Array("<c/>".utf8))
        // An empty run of bytes appends nothing
        buffer.append(contentsOf: UnsafeBufferPointer(start: nil, count: 0))
        let count = buffer.count
        #expect(count == 4)
    }
}
