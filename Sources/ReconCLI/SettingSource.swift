/// Where a setting's value came from, for messages: `config/connect-recon.yaml:7`, `environment variable X`, …
enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case file(path: String, line: Int?)
    case environment(String)
    case flag(String)
    case defaultValue

    var description: String {
        switch self {
        case .file(let path, let line?): "\(path):\(line)"
        case .file(let path, nil): path
        case .environment(let name): "environment variable \(name)"
        case .flag(let name): "option \(name)"
        case .defaultValue: "built-in default"
        }
    }
}

/// A setting's raw value: text, or a typed scalar from the YAML file, with its source.
struct RawSetting: Sendable, Equatable {
    enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
        case number(Double)
        case boolean(Bool)
        case null
    }

    let value: Value
    let source: SettingSource

    /// How the value looks in a message.
    var shown: String {
        switch value {
        case .text(let text): "'\(text.prefix(80))'"
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .boolean(let flag): "\(flag) (a yes/no value)"
        case .null: "an empty value"
        }
    }
}
