import ReconCore

/// A configuration mistake. Every case names the setting and where it came from (file and line,
/// environment variable, or flag) and is bad input: exit status 2, before any network or disk write.
public enum ConfigurationError: ActionableError, Equatable {
    case fileUnreadable(path: String, reason: String)
    case fileNotYAML(path: String, detail: String)
    case notAMapping(path: String, location: String)
    case unknownKey(key: String, location: String, suggestion: String?)
    case wrongType(key: String, location: String, expected: String, got: String)
    case invalidValue(key: String, location: String, reason: String)

    public var message: String {
        switch self {
        case .fileUnreadable(let path, let reason):
            "Cannot read the configuration file '\(path)': \(reason). Check the path given with --config "
                + "(or CONNECT_RECON_CONFIG) and its permissions."
        case .fileNotYAML(let path, let detail):
            "The configuration file '\(path)' is not valid YAML: \(detail). Compare it with config/connect-recon.yaml."
        case .notAMapping(let path, let location):
            "\(location): '\(path)' must be a section of key: value lines (see config/connect-recon.yaml)."
        case .unknownKey(let key, let location, let suggestion):
            "\(location): unknown setting '\(key)'"
                + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
                + ". The settings are listed in the README under Configuration."
        case .wrongType(let key, let location, let expected, let got):
            "\(location): '\(key)' must be \(expected), not \(got)."
        case .invalidValue(let key, let location, let reason):
            "\(location): '\(key)' \(reason)"
        }
    }

    public var isBadInput: Bool { true }
}
