import CDeflateLevel
import CXlsxWriter
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The temporary files libxlsxwriter makes while it closes a workbook (each sheet's XML, copied from its rows and read
/// back to be zipped) get a large stream buffer inside the close's bracket (`Sources/CDeflateLevel/closing_streams.c`).
@Suite("The workbook close's temporary files")
struct ClosingStreamsTests {
    /// What reached the file of a temporary file from `lxw_tmpfile` after writing `count` bytes to its stream, inside
    /// the close's bracket or outside it.
    private static func bytesInTheFile(afterWriting count: Int, closing: Bool) throws -> Int {
        if closing { deflate_level_begin(1) }
        // The stream is closed before the bracket ends: the bracket's end frees the buffers it gave.
        defer { if closing { _ = deflate_level_end() } }
        let file = try #require(lxw_tmpfile(nil), "libxlsxwriter made no temporary file")
        defer { fclose(file) }
        let bytes = [UInt8](repeating: UInt8(ascii: "A"), count: count)
        try #require(fwrite(bytes, 1, count, file) == count)
        var status = stat()
        try #require(fstat(fileno(file), &status) == 0)
        return Int(status.st_size)
    }

    #if os(Linux)
        @Test(
            "inside the close's bracket 64 KiB stay in the stream's 1 MiB buffer; outside, stdio's 4 KiB let them through"
        )
        func aTemporaryFileMadeWhileClosingHasALargeBuffer() throws {
            #expect(CLOSING_STREAM_BUFFER_BYTES == 1 << 20)
            #expect(try Self.bytesInTheFile(afterWriting: 64 * 1024, closing: true) == 0)
            #expect(try Self.bytesInTheFile(afterWriting: 64 * 1024, closing: false) >= 60 * 1024)
        }

        @Test("a bracket's buffers are freed at its end, and the next bracket's files get buffers of their own")
        func bracketsOneAfterAnotherEachBufferTheirFiles() throws {
            for _ in 0..<3 {
                #expect(try Self.bytesInTheFile(afterWriting: 512 * 1024, closing: true) == 0)
            }
        }
    #endif
}
