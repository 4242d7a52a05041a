import CDeflateLevel
import CXlsxWriter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A libxlsxwriter workbook that this value owns: `workbook_close` runs exactly once, from ``close()`` (which
/// reports its result) or, when a write fails midway, from `deinit` (whose half-written file lives in the
/// temporary report folder and is removed with it).
///
/// The workbook streams: `constant_memory` is on, so each sheet's rows go to a temporary file (in
/// `temporaryDirectory`) as they are written, and must be written in order, top to bottom.
struct Workbook: ~Copyable {
    private let owned: OwnedHandle
    let path: String

    var handle: UnsafeMutablePointer<lxw_workbook> { owned.handle }

    init(path: String, temporaryDirectory: String) throws(ReportError) {
        guard let directory = strdup(temporaryDirectory) else {
            throw .workbook(path: path, operation: "create", reason: "out of memory")
        }
        var options = lxw_workbook_options(constant_memory: 1, tmpdir: directory, use_zip64: 0)
        // NULL is failure (STYLE: `workbook_new` returns an implicitly unwrapped pointer).
        guard let handle = workbook_new_opt(path, &options) else {
            free(directory)
            throw .workbook(
                path: path, operation: "create",
                reason: "libxlsxwriter could not start a workbook (out of memory, or no temporary file)")
        }
        self.owned = OwnedHandle(handle: handle, temporaryDirectory: directory)
        self.path = path
    }

    /// Adds a worksheet; the pointer stays valid until the workbook is closed, and is used only before that.
    func addWorksheet(named name: String) throws(ReportError) -> UnsafeMutablePointer<lxw_worksheet> {
        let validation = workbook_validate_sheet_name(handle, name)
        guard validation == LXW_NO_ERROR else {
            throw .workbook(path: path, operation: "add sheet '\(name)'", reason: Self.describe(validation))
        }
        guard let sheet = workbook_add_worksheet(handle, name) else {
            throw .workbook(path: path, operation: "add sheet '\(name)'", reason: "libxlsxwriter refused it")
        }
        owned.streamBuffers.buffer(sheet.pointee.file)
        return sheet
    }

    /// A new cell format, owned by the workbook.
    func addFormat() throws(ReportError) -> UnsafeMutablePointer<lxw_format> {
        guard let format = workbook_add_format(handle) else {
            throw .workbook(path: path, operation: "add format", reason: "out of memory")
        }
        return format
    }

    /// A new chart, owned by the workbook once inserted in a sheet.
    func addChart(type: lxw_chart_type) throws(ReportError) -> UnsafeMutablePointer<lxw_chart> {
        guard let chart = workbook_add_chart(handle, UInt8(type.rawValue)) else {
            throw .workbook(path: path, operation: "add chart", reason: "out of memory")
        }
        return chart
    }

    /// The level for the workbook's zip: 1, fastest. libxlsxwriter zips at zlib's default (6) and has no option
    /// for it; at a million charges level 6 took 25 s, single-threaded, at the very end of the run, and zlib's level 1
    /// 10 s for a file 30 % larger. Where the zip runs in pieces on several cores, igzip compresses them at its level 1:
    /// 4.9 s on two cores, for a file 3 % smaller than zlib's (see `CDeflateLevel`).
    static let zipLevel: Int32 = 1

    /// Assembles the `.xlsx` file (the zip of every sheet, at ``zipLevel`` where `CDeflateLevel`'s override is active,
    /// else at zlib's default) and frees the workbook. Returns whether the override set the level.
    @discardableResult
    consuming func close() throws(ReportError) -> Bool {
        let path = self.path
        let (result, code, zipLevelApplied) = owned.close()
        guard result == LXW_NO_ERROR else {
            if code == ENOSPC || code == EDQUOT { throw .diskFull(path: path) }
            if result == LXW_ERROR_CREATING_XLSX_FILE, code != 0 {
                throw ReportError.from(errno: code, operation: "create", path: path)
            }
            throw .workbook(path: path, operation: "close", reason: Self.describe(result))
        }
        return zipLevelApplied
    }

    static func describe(_ error: lxw_error) -> String {
        guard let text = lxw_strerror(error) else { return "libxlsxwriter error \(error.rawValue)" }
        return String(cString: text)
    }

    /// The C handle, the C string libxlsxwriter keeps for its temporary folder and the sheets' stream buffers,
    /// released exactly once.
    private struct OwnedHandle: ~Copyable {
        let handle: UnsafeMutablePointer<lxw_workbook>
        let temporaryDirectory: UnsafeMutablePointer<CChar>
        let streamBuffers = StreamBuffers()

        /// `workbook_close`'s result, the `errno` right after it, and whether the zip got ``Workbook/zipLevel``.
        consuming func close() -> (lxw_error, Int32, Bool) {
            errno = 0
            deflate_level_begin(Workbook.zipLevel)
            let result = workbook_close(handle)
            let code = errno
            let applied = deflate_level_end() > 0
            free(temporaryDirectory)
            streamBuffers.release()
            discard self
            return (result, code, applied)
        }

        deinit {
            _ = workbook_close(handle)
            free(temporaryDirectory)
            streamBuffers.release()
        }
    }

    /// A buffer of ``size`` for each sheet's stream (its temporary file in constant-memory mode), instead of stdio's 4
    /// KiB: the rows are written to it a few hundred bytes at a time, and `workbook_close` copies it 4 KiB at a time
    /// into the sheet's XML, so with 4 KiB each 4 KiB of a 180 MB sheet took a `write` and a `read` of its own
    /// (docs/BENCHMARKS.md, "Smaller parts"). Released once the workbook is closed, when its streams are. A pointer to
    /// the list, so that the handle stays trivially destroyed (``OwnedHandle/close()`` discards it). The size is the
    /// one the close's own temporary files get (`CLOSING_STREAM_BUFFER_BYTES`, `closing_streams.c`).
    private struct StreamBuffers {
        static let size = Int(CLOSING_STREAM_BUFFER_BYTES)
        private let buffers: UnsafeMutablePointer<[UnsafeMutableRawPointer]>

        init() {
            buffers = .allocate(capacity: 1)
            buffers.initialize(to: [])
        }

        /// Gives `file`, a stream nothing was written to yet, a buffer of ``size``; without memory for one it keeps
        /// stdio's own.
        func buffer(_ file: UnsafeMutablePointer<FILE>?) {
            guard let file, let buffer = malloc(Self.size) else { return }
            guard setvbuf(file, buffer.assumingMemoryBound(to: CChar.self), _IOFBF, Self.size) == 0 else {
                free(buffer)
                return
            }
            buffers.pointee.append(buffer)
        }

        /// Frees the buffers; only after `workbook_close`, which closes the streams.
        func release() {
            for buffer in buffers.pointee { free(buffer) }
            buffers.deinitialize(count: 1)
            buffers.deallocate()
        }
    }
}
