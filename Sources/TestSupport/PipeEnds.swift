import Foundation

/// A pipe made close-on-exec, so that no program started otherwise inherits its write end (and keeps its reader
/// waiting).
public struct PipeEnds: Sendable {
    public let read: Int32
    public let write: Int32

    public init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw ProgramFailure(description: "pipe failed: \(String(cString: strerror(errno)))")
        }
        // (`pipe2`, which would do it at once, is declared for _GNU_SOURCE only; ``ChildProcess`` closes both ends in
        // its children anyway.)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (read, write) = (ends[0], ends[1])
    }

    public func closeBoth() {
        close(read)
        close(write)
    }
}
