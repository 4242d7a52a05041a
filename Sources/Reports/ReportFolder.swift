import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file-system side of writing a report atomically.
///
/// A report is built in a hidden sibling folder `<out>/.<folder>.tmp-<pid>-<random>` and then moved into place:
/// on Linux with `renameat2(RENAME_EXCHANGE)` (macOS: `renamex_np(RENAME_SWAP)`), which swaps the two folders
/// in one step, so a reader sees the whole old report or the whole new one and never a missing folder;
/// where swapping is not supported, the old folder is first renamed aside (`.<folder>.old-<pid>-<random>`),
/// which leaves a moment without a folder but never half a report. The old report is removed afterwards.
/// A run killed midway leaves only hidden `.tmp-`/`.old-` folders, which the next write removes.
enum ReportFolder {
    static let temporaryMarker = ".tmp-"
    static let asideMarker = ".old-"
    /// A `.tmp-`/`.old-` folder of a process that is still alive is left alone until it is this old.
    static let staleAfter: TimeInterval = 24 * 3600

    /// Creates `path` and its parents as needed; fails if it is a file or cannot be created.
    static func prepareOutputDirectory(_ path: String) throws(ReportError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .outputNotAFolder(path: path) }
            return
        }
        guard errno == ENOENT else {
            // ENOTDIR: a parent of the path is a file, so the folder can never be created there.
            if errno == ENOTDIR { throw .outputNotAFolder(path: path) }
            throw ReportError.from(errno: errno, operation: "open", path: path)
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try prepareOutputDirectory(parent) }
        if mkdir(path, 0o777) != 0, errno != EEXIST {
            throw ReportError.from(errno: errno, operation: "create the folder", path: path)
        }
    }

    /// Creates the hidden temporary folder for `folderName` inside `outputPath` and returns its path.
    static func createTemporary(in outputPath: String, for folderName: String) throws(ReportError) -> String {
        let path = outputPath + "/" + hiddenName(folderName, marker: temporaryMarker)
        guard mkdir(path, 0o777) == 0 else {
            throw ReportError.from(errno: errno, operation: "create the temporary folder", path: path)
        }
        return path
    }

    /// `.<folder><marker><pid>-<random>`.
    static func hiddenName(_ folderName: String, marker: String) -> String {
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return ".\(folderName)\(marker)\(getpid())-\(random)"
    }

    /// Moves the complete report at `temporary` to `final`. Returns the path now holding the previous report
    /// (to be removed by the caller), or `nil` when there was none. On failure the previous report is in place.
    static func moveIntoPlace(_ temporary: String, to final: String, outputPath: String, folderName: String)
        throws(ReportError) -> String?
    {
        if rename(temporary, final) == 0 { return nil }
        let code = errno
        guard code == EEXIST || code == ENOTEMPTY else {
            if code == ENOTDIR { throw .outputNotAFolder(path: final) }
            throw ReportError.from(errno: code, operation: "move the new report into", path: final)
        }
        if exchange(temporary, final) { return temporary }
        let aside = outputPath + "/" + hiddenName(folderName, marker: asideMarker)
        guard rename(final, aside) == 0 else {
            throw ReportError.from(errno: errno, operation: "move the previous report aside from", path: final)
        }
        guard rename(temporary, final) == 0 else {
            let code = errno
            _ = rename(aside, final)
            throw ReportError.from(errno: code, operation: "move the new report into", path: final)
        }
        return aside
    }

    /// Swaps two paths in one step, or returns `false` when the system or file system cannot.
    private static func exchange(_ first: String, _ second: String) -> Bool {
        #if os(Linux)
            typealias RenameAt2 =
                @convention(c) (
                    Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
                ) -> Int32
            // glibc ≥ 2.28 has renameat2, but its declaration needs _GNU_SOURCE, which Swift's Glibc module lacks.
            guard let symbol = renameat2Symbol else { return false }
            let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
            let renameExchange: UInt32 = 1 << 1
            return renameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
        #elseif canImport(Darwin)
            return renamex_np(first, second, UInt32(RENAME_SWAP)) == 0
        #else
            return false
        #endif
    }

    #if os(Linux)
        private nonisolated(unsafe) static let renameat2Symbol: UnsafeMutableRawPointer? = dlsym(nil, "renameat2")
    #endif

    /// Removes a folder and everything in it; best effort (what remains is cleaned up by a later write).
    static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes the `.tmp-`/`.old-` folders a killed run left in `outputPath`: those of processes that no
    /// longer exist, and any older than ``staleAfter``. Returns the names removed.
    @discardableResult
    static func removeStale(in outputPath: String, now: Date = Date()) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: outputPath) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let pid = leftoverProcessID(name) else { continue }
            let path = outputPath + "/" + name
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            let ownerGone = pid != getpid() && !isAlive(pid)
            guard ownerGone || now.timeIntervalSince(modified) > staleAfter else { continue }
            removeTree(path)
            removed.append(name)
        }
        return removed
    }

    /// The process id in a `.<folder>.tmp-<pid>-<random>` or `.<folder>.old-<pid>-<random>` name, else `nil`.
    static func leftoverProcessID(_ name: String) -> Int32? {
        guard name.hasPrefix(".") else { return nil }
        for marker in [temporaryMarker, asideMarker] {
            guard let range = name.range(of: marker, options: .backwards) else { continue }
            let rest = name[range.upperBound...].split(separator: "-")
            guard rest.count == 2, let pid = Int32(rest[0]), pid > 0, UInt32(rest[1], radix: 16) != nil else {
                continue
            }
            return pid
        }
        return nil
    }

    private static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
