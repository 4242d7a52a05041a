import Foundation
import History
import ReconCore

/// Converts the winning raw settings into a checked ``Configuration``.
struct ConfigurationBuilder {
    let settings: [String: RawSetting]

    func build(filePath: String?) throws(ConfigurationError) -> Configuration {
        let baseText = try text(.apiBaseURL)
        let baseURL: URL
        switch APIBaseValidator.validate(baseText) {
        case .success(let url): baseURL = url
        case .failure(let refusal): throw invalid(.apiBaseURL, refusal.reason)
        }
        let version = try text(.stripeVersion)
        guard !version.isEmpty, version.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else {
            throw invalid(.stripeVersion, "must be a Stripe API version such as 2026-07-29.dahlia.")
        }
        let zoneName = try text(.timeZone)
        let zone: TimeZone
        do {
            zone = try RangeResolver.timeZone(named: zoneName)
        } catch {
            throw invalid(.timeZone, "names an unknown time zone; use an IANA name such as UTC or Europe/Berlin.")
        }
        let keyFile = try optionalText(.keyFile)
        if let keyFile, keyFile.isEmpty { throw invalid(.keyFile, "is empty; remove it or name the key file.") }
        let outputDirectory = try text(.outputDirectory)
        guard !outputDirectory.isEmpty else { throw invalid(.outputDirectory, "is empty; name a folder.") }
        let history = try historyLocation()

        return Configuration(
            apiBaseURL: baseURL,
            stripeVersion: version,
            keyFile: keyFile,
            rateLimit: try numberOrAuto(.rateLimit),
            endpointRateLimit: try number(.endpointRateLimit),
            concurrency: try integer(.concurrency),
            requestTimeout: try number(.requestTimeout),
            connectTimeout: try number(.connectTimeout),
            maxRetries: try integer(.maxRetries),
            timeZone: zone,
            timeZoneName: zoneName,
            maxRangeDays: try integer(.maxDays),
            settleMargin: TimeInterval(try integer(.settleMargin)),
            skippedTransferGrace: TimeInterval(try integer(.skippedTransferGrace)),
            lookbackDays: try integer(.lookbackDays),
            compareWithStripeReports: try flag(.compareWithStripeReports),
            debitLinkKeys: try keyList(.debitLinkKeys),
            stripeReportWait: TimeInterval(try integer(.stripeReportWait)),
            outputDirectory: outputDirectory,
            history: history,
            lockWait: TimeInterval(try integer(.lockWait)),
            logLevel: try choice(.logLevel),
            filePath: filePath
        )
    }

    /// Where the history lives: a SQLite file's path, or a PostgreSQL URL. Another URL is never taken for a file
    /// name, and a URL's password is never shown.
    private func historyLocation() throws(ConfigurationError) -> HistoryLocation {
        let setting = try text(.databasePath)
        guard !setting.isEmpty else {
            throw invalid(.databasePath, "is empty; name a file, or a postgresql:// URL.")
        }
        do {
            return try HistoryLocation(setting)
        } catch {
            throw invalid(.databasePath, "cannot be used: " + error.message)
        }
    }

    // MARK: - Typed access

    private func raw(_ definition: SettingDefinition) -> RawSetting {
        settings[definition.path] ?? RawSetting(value: .null, source: .defaultValue)
    }

    private func invalid(_ definition: SettingDefinition, _ reason: String) -> ConfigurationError {
        .invalidValue(key: definition.path, location: raw(definition).source.description, reason: reason)
    }

    private func wrongType(_ definition: SettingDefinition) -> ConfigurationError {
        let setting = raw(definition)
        return .wrongType(
            key: definition.path, location: setting.source.description, expected: definition.kind.expectation,
            got: setting.shown)
    }

    private func optionalText(_ definition: SettingDefinition) throws(ConfigurationError) -> String? {
        switch raw(definition).value {
        case .null: return nil
        case .text(let text): return text
        default: throw wrongType(definition)
        }
    }

    private func text(_ definition: SettingDefinition) throws(ConfigurationError) -> String {
        guard let text = try optionalText(definition) else { throw wrongType(definition) }
        return text
    }

    /// A comma-separated list of metadata keys: at least one, each without spaces.
    private func keyList(_ definition: SettingDefinition) throws(ConfigurationError) -> [String] {
        let keys = try text(definition).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !keys.isEmpty else {
            throw invalid(definition, "names no key; list the metadata keys, for example: charge, refund, dispute.")
        }
        if let bad = keys.first(where: { $0.contains(where: \.isWhitespace) }) {
            throw invalid(definition, "has a key with a space in it ('\(bad)'); separate the keys with commas.")
        }
        return keys
    }

    private func integer(_ definition: SettingDefinition) throws(ConfigurationError) -> Int {
        guard case .integer(let range) = definition.kind else {
            preconditionFailure("\(definition.path) is not integer")
        }
        let value: Int
        switch raw(definition).value {
        case .integer(let number): value = number
        case .text(let text):
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else { throw wrongType(definition) }
            value = number
        default: throw wrongType(definition)
        }
        guard range.contains(value) else {
            throw invalid(definition, "must be \(definition.kind.expectation), not \(value).")
        }
        return value
    }

    private func number(_ definition: SettingDefinition) throws(ConfigurationError) -> Double {
        let range: ClosedRange<Double>
        switch definition.kind {
        case .number(let bounds), .numberOrAuto(let bounds): range = bounds
        default: preconditionFailure("\(definition.path) is not a number")
        }
        let value: Double
        switch raw(definition).value {
        case .integer(let number): value = Double(number)
        case .number(let number): value = number
        case .text(let text):
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                throw wrongType(definition)
            }
            value = number
        default: throw wrongType(definition)
        }
        guard range.contains(value) else {
            throw invalid(definition, "must be \(definition.kind.expectation), not \(value.plain).")
        }
        return value
    }

    private func numberOrAuto(_ definition: SettingDefinition) throws(ConfigurationError) -> Double? {
        if case .text(let text) = raw(definition).value,
            text.trimmingCharacters(in: .whitespaces).lowercased() == "auto"
        {
            return nil
        }
        return try number(definition)
    }

    private func flag(_ definition: SettingDefinition) throws(ConfigurationError) -> Bool {
        switch raw(definition).value {
        case .boolean(let flag): return flag
        case .integer(1): return true
        case .integer(0): return false
        case .text(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw wrongType(definition)
            }
        default: throw wrongType(definition)
        }
    }

    private func choice(_ definition: SettingDefinition) throws(ConfigurationError) -> String {
        guard case .choice(let words) = definition.kind else {
            preconditionFailure("\(definition.path) is not a choice")
        }
        let word = try text(definition).lowercased()
        guard words.contains(word) else { throw wrongType(definition) }
        return word
    }
}
