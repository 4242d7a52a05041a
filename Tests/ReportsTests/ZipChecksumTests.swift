import CDeflateLevel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// minizip's CRC-32 of what it zips, computed by ISA-L inside the close's bracket and by zlib elsewhere
/// (`Sources/CDeflateLevel/zip_checksum.c`): the same checksum either way, call after call.
@Suite("The zip's checksum")
struct ZipChecksumTests {
    typealias CRC32 = @convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt

    /// The `crc32` a library that calls zlib's (libminizip) reaches: the executable's, found first.
    static func reached() throws -> CRC32 {
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "crc32"), "no crc32 in the process")
        return unsafeBitCast(symbol, to: CRC32.self)
    }

    /// zlib's own `crc32`.
    static func zlibs() throws -> CRC32 {
        let library = try #require(dlopen("libz.so.1", RTLD_NOW | RTLD_NOLOAD) ?? dlopen("libz.so.1", RTLD_NOW))
        let symbol = try #require(dlsym(library, "crc32"), "zlib has no crc32")
        return unsafeBitCast(symbol, to: CRC32.self)
    }

    /// The checksum of `bytes` in calls of `sizes` bytes each, chained as minizip chains them.
    static func checksum(_ bytes: [UInt8], in sizes: [Int], with crc32: CRC32) -> UInt {
        bytes.withUnsafeBufferPointer { buffer in
            var crc = crc32(0, nil, 0)
            var start = 0
            for size in sizes {
                crc = crc32(crc, buffer.baseAddress.map { $0 + start }, UInt32(size))
                start += size
            }
            return crc
        }
    }

    #if os(Linux)
        @Test("libraries reach the executable's crc32, not zlib's: the one the close's bracket gives ISA-L's")
        func theExecutablesChecksumIsTheOneReached() throws {
            let reached = unsafeBitCast(try Self.reached(), to: UnsafeRawPointer.self)
            let zlib = unsafeBitCast(try Self.zlibs(), to: UnsafeRawPointer.self)
            #expect(reached != zlib, "crc32 resolves to zlib's own")
        }

        @Test("inside the close's bracket and outside it, the checksum is zlib's, in one call or in pieces of any size")
        func theChecksumIsZlibsInsideTheBracketAndOutside() throws {
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let splits: [[Int]] = [[300_000], [1, 2, 3, 65_536, 234_458], [0, 299_999, 1], [100_000, 0, 200_000]]
            let zlib = try Self.zlibs()
            let reached = try Self.reached()
            for sizes in splits {
                let expected = Self.checksum(bytes, in: sizes, with: zlib)
                deflate_level_begin(1)
                let inside = Self.checksum(bytes, in: sizes, with: reached)
                _ = deflate_level_end()
                let outside = Self.checksum(bytes, in: sizes, with: reached)
                #expect(inside == expected, "in pieces of \(sizes)")
                #expect(outside == expected, "in pieces of \(sizes)")
            }
            #expect(Self.checksum(Array("123456789".utf8), in: [9], with: reached) == 0xCBF4_3926)
        }
    #endif
}
