// swift-tools-version:6.1
// connect-recon: reconciles a Stripe Connect platform's money.
//
// The pipeline is the architecture: Stripe API → extract → history store → reconcile → reports.
// One library module per concern, arrows pointing one way; only ReconCLI wires modules together.

import PackageDescription

let package = Package(
    name: "connect-recon",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "connect-recon", targets: ["connect-recon"]),
        .executable(name: "connect-recon-bench", targets: ["ConnectReconBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // MARK: C libraries from the system (apt: libcurl4-openssl-dev, libxlsxwriter-dev, libpq-dev, libisal-dev)
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CXlsxWriter",
            pkgConfig: "xlsxwriter",
            providers: [.apt(["libxlsxwriter-dev"])]
        ),
        /// libpq: a PostgreSQL history's URL is libpq's to read (PGPASSWORD, ~/.pgpass, sslmode and the rest).
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        /// ISA-L's igzip and CRC-32: the workbook's zip, several times as fast as zlib's level 1 (parallel_deflate.c,
        /// zip_checksum.c).
        .systemLibrary(
            name: "CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),

        // MARK: The pipeline
        /// Money, currencies, date ranges: depends on nothing.
        .target(name: "ReconCore"),
        /// The workbook's zip: libxlsxwriter zips at zlib's default, on one thread, and has no option (see
        /// deflate_level.c and parallel_deflate.c).
        .target(name: "CDeflateLevel", dependencies: ["CISAL"]),
        /// Turns off SQLite's process-wide memory statistics, a mutex on every allocation (`sqlite3_config` is variadic).
        .target(name: "CSQLiteMemoryStatus", linkerSettings: [.linkedLibrary("sqlite3")]),
        /// A blocking queue and threads of their own, for work that must not hold Swift concurrency's few threads.
        .target(name: "WorkerThreads"),
        /// Stripe's wire models, the JSON tape they decode from, the API key, the client over an HTTP transport protocol
        /// (retries, rate budget, errors) and the Reporting API's runner.
        .target(
            name: "StripeAPI",
            dependencies: ["ReconCore", .product(name: "Logging", package: "swift-log")]
        ),
        /// The libcurl implementation of the HTTP transport (the only module importing CCurl).
        .target(name: "CurlTransport", dependencies: ["CCurl", "StripeAPI", "WorkerThreads"]),
        /// The history database (the only module importing GRDB, and SQLite's C API for the upserts' hot loop).
        .target(
            name: "History",
            dependencies: [
                "ReconCore", "CPostgreSQL", "CSQLiteMemoryStatus", "WorkerThreads",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        /// Windows, concurrent paging under the rate budget, follow-ups by id; wire models → history.
        .target(
            name: "Extract",
            dependencies: [
                "ReconCore", "StripeAPI", "History", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The rules (docs/RULES.md): facts in, report rows out. No network, database, clock or logger.
        .target(name: "Reconcile", dependencies: ["ReconCore"]),
        /// CSV and XLSX writers (the only module importing CXlsxWriter). They format; they never compute.
        .target(
            name: "Reports",
            dependencies: [
                "ReconCore", "CXlsxWriter", "CDeflateLevel", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        /// A Stripe-compatible loopback server with a seeded Connect world, for tests, benchmarks and the demo.
        /// It writes Stripe's JSON on its own and never uses StripeAPI's models.
        .target(
            name: "Sandbox",
            dependencies: [
                "ReconCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        /// The oracle: what each report must contain for a range of the sandbox's world, computed from the tables the
        /// generator filled, never from the JSON it serves. For tests only: the shipped executable never links it.
        .target(name: "SandboxTruth", dependencies: ["ReconCore", "Sandbox"]),
        /// A range run end to end: extract → store → reconcile → report, with the run recorded in the history.
        .target(
            name: "Pipeline",
            dependencies: [
                "ReconCore", "StripeAPI", "CurlTransport", "History", "Extract", "Reconcile", "Reports",
                "WorkerThreads", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// Commands, configuration, printing.
        .target(
            name: "ReconCLI",
            dependencies: [
                "ReconCore", "StripeAPI", "CurlTransport", "History", "Extract", "Reports", "Sandbox", "Pipeline",
                "WorkerThreads", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(name: "connect-recon", dependencies: ["ReconCLI"]),
        /// What every test target may share (of the product's modules it uses only ReconCore): a raw-socket HTTP
        /// client, a scripted stub server, temporary folders and runners for the built executable and programs.
        .target(
            name: "TestSupport",
            dependencies: [
                "ReconCore", "History",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        /// What the command-line test targets share: a recording console, an in-process runner, and a sandbox world
        /// served with a folder and an empty configuration (`SandboxCommandLine`).
        .target(name: "ConnectReconTestSupport", dependencies: ["ReconCLI", "Sandbox", "TestSupport"]),
        /// Test support: a sandbox world extracted into a history (`ExtractionHarness`), for the tests of Extract and
        /// of History's parts. Not part of the product.
        .target(
            name: "ExtractionTestSupport",
            dependencies: [
                "Extract", "Sandbox", "CurlTransport", "History", "StripeAPI", "ReconCore", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        /// The benchmark: sets up the sandbox and the data itself, prints a table. SwiftNIO for (h)'s recorded-bytes
        /// server, which serves an extraction's responses again with no Stripe logic; TestSupport for the programs it
        /// starts (its child servers, `sqlite3`, `python3`), as the tests start them.
        .executableTarget(
            name: "ConnectReconBench",
            dependencies: [
                "ReconCore", "StripeAPI", "CurlTransport", "History", "Extract", "Reconcile", "Reports", "Sandbox",
                "Pipeline", "WorkerThreads", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "ReconCoreTests", dependencies: ["ReconCore"]),
        .testTarget(name: "ConnectReconBenchTests", dependencies: ["ConnectReconBench"]),
        .testTarget(name: "WorkerThreadsTests", dependencies: ["WorkerThreads"]),
        .testTarget(name: "CurlTransportTests", dependencies: ["CurlTransport", "StripeAPI", "TestSupport"]),
        .testTarget(
            name: "StripeAPITests",
            dependencies: ["StripeAPI", "ReconCore", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HistoryTests",
            dependencies: [
                "History", "ReconCore", "Reconcile", "Sandbox", "TestSupport", "ExtractionTestSupport",
                "CSQLiteMemoryStatus",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ExtractTests",
            dependencies: [
                "Extract", "Sandbox", "CurlTransport", "History", "StripeAPI", "ReconCore", "Reconcile", "TestSupport",
                "ExtractionTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The pure rules on hand-written books: no sandbox, network or database.
        .testTarget(name: "ReconcileTests", dependencies: ["Reconcile", "ReconCore"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "ReconCore", "TestSupport", "CISAL"]),
        .testTarget(name: "SandboxTests", dependencies: ["Sandbox", "SandboxTruth", "ReconCore", "TestSupport"]),
        .testTarget(
            name: "ReconCLITests",
            dependencies: ["ReconCLI", "ReconCore", "History", "Sandbox", "ConnectReconTestSupport", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        /// The whole pipeline against the sandbox's ground truth: the rules on every object a world serves, ranges
        /// extracted into a history and reconciled from it, and `connect-recon run` writing the reports.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Reconcile", "ReconCore", "Sandbox", "SandboxTruth", "Extract", "History", "CurlTransport", "StripeAPI",
                "ConnectReconTestSupport", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// Faults, crashes, concurrent runs, hostile input and secrets, at the command level.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "ReconCLI", "ReconCore", "History", "Sandbox", "Reports", "ConnectReconTestSupport", "TestSupport",
            ]
        ),
    ]
)

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    // Require `any` for existential types.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // Members are visible only from modules a file imports itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
