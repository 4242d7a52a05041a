import Foundation
import ReconCore
import StripeAPI

/// Finds the API key: `STRIPE_API_KEY`, else the configured key file. Never the command line.
struct CredentialResolver: Sendable {
    static let variable = "STRIPE_API_KEY"

    let environment: [String: String]

    /// The key, plus a warning to log when the key file is readable by others.
    func resolve(keyFile: String?) throws(CredentialError) -> (key: APIKey, warning: String?) {
        if let text = environment[Self.variable] {
            do {
                return (try APIKey(text), nil)
            } catch {
                throw .invalid(source: "environment variable \(Self.variable)", error)
            }
        }
        guard let keyFile else { throw .missing }
        let text: String
        do {
            text = try String(contentsOfFile: keyFile, encoding: .utf8)
        } catch {
            let exists = FileManager.default.fileExists(atPath: keyFile)
            throw .keyFileUnreadable(path: keyFile, reason: exists ? "permission denied or not text" : "no such file")
        }
        let key: APIKey
        do {
            key = try APIKey(text)
        } catch {
            throw .invalid(source: "key file '\(keyFile)'", error)
        }
        return (key, Self.permissionWarning(for: keyFile))
    }

    /// A warning when group or others may read the key file.
    static func permissionWarning(for path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue, permissions & 0o077 != 0
        else { return nil }
        return "The key file '\(path)' can be read by other users (mode \(String(permissions & 0o777, radix: 8))); "
            + "run: chmod 600 '\(path)'"
    }
}

/// Why no usable key was found. Bad input: exit status 2.
public enum CredentialError: ActionableError {
    case missing
    case keyFileUnreadable(path: String, reason: String)
    case invalid(source: String, APIKeyError)

    public var message: String {
        switch self {
        case .missing:
            "No Stripe API key. Set STRIPE_API_KEY in the environment (export STRIPE_API_KEY=rk_live_…), or put the "
                + "key alone in a file readable only by you (chmod 600) and name it as api.key_file in the "
                + "configuration. The key is never accepted on the command line."
        case .keyFileUnreadable(let path, let reason):
            "Cannot read the key file '\(path)' (\(reason)). Check api.key_file in the configuration and the file's "
                + "permissions."
        case .invalid(let source, let error):
            "\(source): \(error.message)"
        }
    }

    public var isBadInput: Bool { true }
}
