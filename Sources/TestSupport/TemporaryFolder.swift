import Foundation

/// A temporary folder removed when the test ends.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("connect-recon-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The folder's own path.
    public var path: String { url.path }

    /// The names directly in the folder, hidden ones too, sorted.
    public func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Every file directly in `folder` with its bytes, by name: to show that a folder was left byte-identical.
    public static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` with `permissions` and returns the path.
    @discardableResult
    public func write(_ name: String, _ text: String, permissions: Int = 0o600) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        return path
    }

    /// Every file below the folder, relative paths, sorted.
    public func contents() -> [String] {
        (FileManager.default.subpaths(atPath: url.path) ?? []).sorted()
    }
}
