import CISAL

/// What the workbook's zip makes of a sheet on several threads, modelled with ISA-L's own calls: pieces of `piece`
/// bytes, each compressed by igzip at its level 1 as raw deflate, primed with the 32 KiB before it, ended by a sync
/// flush, the last by the end of the stream; the outputs in order. `nil` when igzip fails.
enum IgzipPiecesModel {
    static func compressed(_ data: [UInt8], piece: Int) -> [UInt8]? {
        let stream = UnsafeMutablePointer<isal_zstream>.allocate(capacity: 1)
        let levelBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(connect_recon_igzip_level_1_buffer_bytes))
        defer {
            stream.deallocate()
            levelBuffer.deallocate()
        }
        let starts = Array(stride(from: 0, to: max(data.count, 1), by: piece))
        var output: [UInt8] = []
        for (index, start) in starts.enumerated() {
            let end = min(start + piece, data.count)
            let last = index == starts.count - 1
            var input = Array(data[start..<end])
            var dictionary = Array(data[max(0, start - 32_768)..<start])
            isal_deflate_init(stream)
            stream.pointee.level = 1
            stream.pointee.level_buf = levelBuffer
            stream.pointee.level_buf_size = UInt32(connect_recon_igzip_level_1_buffer_bytes)
            if !dictionary.isEmpty,
                isal_deflate_set_dict(stream, &dictionary, UInt32(dictionary.count)) != COMP_OK
            {
                return nil
            }
            var buffer = [UInt8](repeating: 0, count: input.count * 2 + 1_024)
            let produced = input.withUnsafeMutableBufferPointer { inputBytes in
                buffer.withUnsafeMutableBufferPointer { outputBytes -> Int? in
                    stream.pointee.next_in = inputBytes.baseAddress
                    stream.pointee.avail_in = UInt32(inputBytes.count)
                    stream.pointee.next_out = outputBytes.baseAddress
                    stream.pointee.avail_out = UInt32(outputBytes.count)
                    stream.pointee.end_of_stream = last ? 1 : 0
                    stream.pointee.flush = UInt16(last ? NO_FLUSH : SYNC_FLUSH)
                    guard isal_deflate(stream) == COMP_OK, stream.pointee.avail_in == 0,
                        stream.pointee.internal_state.state == (last ? ZSTATE_END : ZSTATE_NEW_HDR)
                    else { return nil }
                    return outputBytes.count - Int(stream.pointee.avail_out)
                }
            }
            guard let produced else { return nil }
            output += buffer[0..<produced]
        }
        return output
    }
}
