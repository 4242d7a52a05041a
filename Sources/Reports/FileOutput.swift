#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor that this value owns and closes exactly once.
struct OwnedFileDescriptor: ~Copyable {
    private let owned: Descriptor
    let path: String

    var raw: Int32 { owned.raw }

    /// Creates (or truncates) `path` for writing, mode 0666 less the umask (as the workbook, written by
    /// libxlsxwriter through `fopen`, is).
    static func create(_ path: String) throws(ReportError) -> OwnedFileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw ReportError.from(errno: errno, operation: "create", path: path) }
        return OwnedFileDescriptor(raw: fd, path: path)
    }

    /// Opens `path` (a file or a folder) read-only, for `fsync`.
    static func openForSync(_ path: String) throws(ReportError) -> OwnedFileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReportError.from(errno: errno, operation: "open", path: path) }
        return OwnedFileDescriptor(raw: fd, path: path)
    }

    private init(raw: Int32, path: String) {
        self.owned = Descriptor(raw: raw)
        self.path = path
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ReportError) {
        try Self.write(bytes, to: raw, path: path)
    }

    /// Writes all of `bytes` to the descriptor `raw` (named `path` in errors).
    static func write(_ bytes: UnsafeRawBufferPointer, to raw: Int32, path: String) throws(ReportError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            #if canImport(Glibc)
                let written = Glibc.write(raw, next, remaining)
            #else
                let written = Darwin.write(raw, next, remaining)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                throw ReportError.from(errno: errno, operation: "write", path: path)
            }
            remaining -= written
            next += written
        }
    }

    /// Asks the kernel to start writing the file's data to the disk now, without waiting for it (Linux: the dirty
    /// pages go to the disk while the run goes on, so the `fsync` before the report is put in place finds little
    /// left to wait for; elsewhere nothing). Never fails: the `fsync` is what makes the file durable.
    func startWriteback() {
        #if os(Linux)
            _ = posix_fadvise(raw, 0, 0, POSIX_FADV_DONTNEED)
        #endif
    }

    /// Flushes the file's data to the disk.
    func sync() throws(ReportError) {
        guard fsync(raw) == 0 else { throw ReportError.from(errno: errno, operation: "sync", path: path) }
    }

    /// Closes the descriptor, reporting a failed close (on some file systems the last write error shows here).
    consuming func close() throws(ReportError) {
        let path = self.path
        let (result, code) = owned.close()
        guard result == 0 else { throw ReportError.from(errno: code, operation: "close", path: path) }
    }

    /// The descriptor itself, closed exactly once.
    private struct Descriptor: ~Copyable {
        let raw: Int32

        /// `close`'s result and the `errno` right after it.
        consuming func close() -> (Int32, Int32) {
            let result = closeDescriptor(raw)
            let code = errno
            discard self
            return (result, code)
        }

        deinit { _ = closeDescriptor(raw) }
    }
}

private func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(fd)
    #else
        Darwin.close(fd)
    #endif
}

/// `fsync` of a file or folder by path (a folder's entries are durable only once the folder is synced).
func syncPath(_ path: String) throws(ReportError) {
    let descriptor = try OwnedFileDescriptor.openForSync(path)
    try descriptor.sync()
    try descriptor.close()
}
