import Foundation
import ReconCore
import Yams

/// Reads the configuration: flag > environment > file > default, with every value checked.
///
/// The file is YAML, read with Yams; unknown keys and wrong types are errors that name the key and the
/// file's line. Nothing here touches the network or writes to disk.
struct ConfigurationLoader: Sendable {
    /// The default file, read when it exists and neither --config nor CONNECT_RECON_CONFIG names another.
    static let defaultFilePath = "config/connect-recon.yaml"
    static let fileVariable = "CONNECT_RECON_CONFIG"

    let environment: [String: String]
    /// Values given on the command line, by setting path (`output.reports_dir` for --out, …).
    let flags: [String: RawSetting]

    /// Loads the configuration; `explicitFile` is the --config option.
    func load(explicitFile: String?) throws(ConfigurationError) -> Configuration {
        let filePath = try resolveFilePath(explicitFile)
        let fileSettings = try filePath.map { path throws(ConfigurationError) in try readFile(path) } ?? [:]
        var winners: [String: RawSetting] = [:]
        for definition in SettingDefinition.all {
            if let flag = flags[definition.path] {
                winners[definition.path] = flag
            } else if let variable = definition.environment.first(where: { environment[$0] != nil }),
                let text = environment[variable]
            {
                winners[definition.path] = RawSetting(value: .text(text), source: .environment(variable))
            } else if let fromFile = fileSettings[definition.path], fromFile.value != .null {
                winners[definition.path] = fromFile
            } else if let text = definition.defaultValue {
                winners[definition.path] = RawSetting(value: .text(text), source: .defaultValue)
            }
        }
        return try ConfigurationBuilder(settings: winners).build(filePath: filePath)
    }

    private func resolveFilePath(_ explicitFile: String?) throws(ConfigurationError) -> String? {
        if let explicitFile { return explicitFile }
        if let fromEnvironment = environment[Self.fileVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        return FileManager.default.fileExists(atPath: Self.defaultFilePath) ? Self.defaultFilePath : nil
    }

    // MARK: - The file

    private func readFile(_ path: String) throws(ConfigurationError) -> [String: RawSetting] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileUnreadable(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .fileUnreadable(path: path, reason: "it is a folder") }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let readable = FileManager.default.isReadableFile(atPath: path)
            throw .fileUnreadable(path: path, reason: readable ? "it is not UTF-8 text" : "permission denied")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw .fileNotYAML(path: path, detail: Self.describe(error))
        }
        guard let root else { return [:] }  // an empty file sets nothing
        return try flatten(root, path: path)
    }

    /// Turns `section: {key: value}` into `["section.key": value]`, refusing unknown keys and nesting.
    private func flatten(_ root: Node, path: String) throws(ConfigurationError) -> [String: RawSetting] {
        guard case .mapping(let sections) = root else {
            throw .notAMapping(path: "the whole file", location: location(path, root))
        }
        let sectionNames = Set(SettingDefinition.all.map { String($0.path.prefix { $0 != "." }) })
        var result: [String: RawSetting] = [:]
        for (sectionKey, sectionNode) in sections {
            let section = sectionKey.string ?? "?"
            guard sectionNames.contains(section) else {
                throw .unknownKey(
                    key: section, location: location(path, sectionKey),
                    suggestion: Self.closest(to: section, among: Array(sectionNames)))
            }
            if sectionNode.tag.rawValue == Tag.Name.null.rawValue { continue }  // an empty section
            guard case .mapping(let pairs) = sectionNode else {
                throw .notAMapping(path: section, location: location(path, sectionNode))
            }
            for (keyNode, valueNode) in pairs {
                let key = "\(section).\(keyNode.string ?? "?")"
                guard SettingDefinition.byPath[key] != nil else {
                    throw .unknownKey(
                        key: key, location: location(path, keyNode),
                        suggestion: Self.closest(to: key, among: SettingDefinition.all.map(\.path)))
                }
                result[key] = try rawSetting(valueNode, key: key, path: path)
            }
        }
        return result
    }

    private func rawSetting(_ node: Node, key: String, path: String) throws(ConfigurationError) -> RawSetting {
        let source = SettingSource.file(path: path, line: node.mark.map { $0.line })
        guard case .scalar(let scalar) = node else {
            throw .wrongType(
                key: key, location: source.description,
                expected: SettingDefinition.byPath[key]?.kind.expectation ?? "a single value",
                got: "a list or section")
        }
        let value: RawSetting.Value
        switch node.tag.rawValue {
        case Tag.Name.null.rawValue: value = .null
        case Tag.Name.bool.rawValue: value = node.bool.map { .boolean($0) } ?? .text(scalar.string)
        case Tag.Name.int.rawValue: value = node.int.map { .integer($0) } ?? .text(scalar.string)
        case Tag.Name.float.rawValue: value = node.float.map { .number($0) } ?? .text(scalar.string)
        default: value = .text(scalar.string)
        }
        return RawSetting(value: value, source: source)
    }

    private func location(_ path: String, _ node: Node) -> String {
        SettingSource.file(path: path, line: node.mark.map { $0.line }).description
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error).replacingOccurrences(of: "\n", with: " ")
        return String(text.prefix(300))
    }

    /// The known name nearest to a misspelling, when it is close enough to be a likely typo.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, name.count / 4) else { return nil }
        return best
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
