import ConnectReconTestSupport
import Foundation
import History
import Testing

@testable import ReconCLI

@Suite("Configuration")
struct ConfigurationTests {
    static let exampleFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/connect-recon.yaml").path

    @Test("the example configuration loads as it is and says what the built-in defaults say")
    func exampleMatchesDefaults() throws {
        let folder = try TemporaryFolder()
        let empty = try folder.write("empty.yaml", "")
        let example = try ConfigurationLoader(environment: [:], flags: [:]).load(explicitFile: Self.exampleFile)
        var defaults = try ConfigurationLoader(environment: [:], flags: [:]).load(explicitFile: empty)
        defaults.filePath = example.filePath
        #expect(example == defaults)
        #expect(example.apiBaseURL.absoluteString == "https://api.stripe.com")
        #expect(example.stripeVersion == "2026-07-29.dahlia")
        #expect(example.rateLimit == nil)
        #expect(example.effectiveRateLimit(liveMode: true) == 100)
        #expect(example.effectiveRateLimit(liveMode: false) == 25)
        #expect(example.endpointRateLimit == 25)
        #expect(example.skippedTransferGrace == 3_600)
        #expect(example.maxRangeDays == 366)
        #expect(example.outputDirectory == "Reports")
        #expect(example.timeZoneName == "UTC")
    }

    @Test("the example file mentions every setting")
    func exampleDocumentsEverySetting() throws {
        let text = try String(contentsOfFile: Self.exampleFile, encoding: .utf8)
        for definition in SettingDefinition.all {
            let key = String(definition.path.split(separator: ".")[1])
            #expect(text.contains(key + ":"), "\(definition.path) is in the example")
        }
    }

    @Test("docs/CONFIGURATION.md lists every setting once, with its variables and its default")
    func documentationListsEverySetting() throws {
        let documentation = URL(fileURLWithPath: Self.exampleFile).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/CONFIGURATION.md")
        let rows = try String(contentsOf: documentation, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("| `") }
        #expect(rows.count == SettingDefinition.all.count, "one row per setting")
        for definition in SettingDefinition.all {
            let row = rows.first { $0.hasPrefix("| `\(definition.path)` |") }
            #expect(row != nil, "\(definition.path) has a row")
            guard let row else { continue }
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for variable in definition.environment {
                #expect(cells[1].contains("`\(variable)`"), "\(definition.path) names \(variable)")
            }
            #expect(cells[2] == (definition.defaultValue.map { "`\($0)`" } ?? "none"), "\(definition.path) default")
        }
    }

    @Test("layers: flag over environment over file over default")
    func layering() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "c.yaml", "output:\n  reports_dir: from-file\n  database: file.sqlite\napi:\n  concurrency: 3\n")
        let environment = [
            "CONNECT_RECON_OUTPUT_REPORTS_DIR": "from-env", "CONNECT_RECON_OUTPUT_DATABASE": "env.sqlite",
        ]
        let flags = ["output.reports_dir": RawSetting(value: .text("from-flag"), source: .flag("--out"))]
        let configuration = try ConfigurationLoader(environment: environment, flags: flags).load(explicitFile: file)
        #expect(configuration.outputDirectory == "from-flag")
        #expect(configuration.history == .sqliteFile(path: "env.sqlite"))
        #expect(configuration.concurrency == 3)
        #expect(configuration.maxRetries == 6)
        #expect(configuration.filePath == file)
    }

    @Test("STRIPE_API_BASE sets the API base; a trailing slash is dropped")
    func apiBaseFromEnvironment() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("c.yaml", "")
        let configuration = try ConfigurationLoader(
            environment: ["STRIPE_API_BASE": "http://127.0.0.1:12111/"], flags: [:]
        ).load(explicitFile: file)
        #expect(configuration.apiBaseURL.absoluteString == "http://127.0.0.1:12111")
    }

    @Test("CONNECT_RECON_CONFIG names the file when --config is absent")
    func fileFromEnvironment() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("c.yaml", "api:\n  rate_limit: 7.5\n")
        let configuration = try ConfigurationLoader(environment: ["CONNECT_RECON_CONFIG": file], flags: [:])
            .load(explicitFile: nil)
        #expect(configuration.rateLimit == 7.5)
        #expect(configuration.effectiveRateLimit(liveMode: true) == 7.5)
    }

    @Test("an empty value or an empty section in the file means the default")
    func nullMeansDefault() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("c.yaml", "api:\n  key_file:\n  concurrency: ~\nrange:\n")
        let configuration = try ConfigurationLoader(environment: [:], flags: [:]).load(explicitFile: file)
        #expect(configuration.keyFile == nil)
        #expect(configuration.concurrency == 32)
    }

    @Test(
        "loopback hosts may use plain http; others may not",
        arguments: [
            ("http://127.0.0.1:12111", true), ("http://localhost:8080", true), ("http://[::1]:8080", true),
            ("http://127.8.9.10", true), ("https://api.stripe.com", true), ("http://api.stripe.com", false),
            ("http://128.0.0.1", false), ("http://localhost.evil.com", false), ("http://192.168.1.4", false),
        ])
    func loopback(base: String, accepted: Bool) {
        let result = APIBaseValidator.validate(base)
        if case .success = result { #expect(accepted) } else { #expect(!accepted) }
    }

    @Test("misspellings get a suggestion; unrelated names do not")
    func suggestions() {
        #expect(
            ConfigurationLoader.closest(to: "api.concurency", among: SettingDefinition.all.map(\.path))
                == "api.concurrency")
        #expect(ConfigurationLoader.closest(to: "colour", among: SettingDefinition.all.map(\.path)) == nil)
    }
}
