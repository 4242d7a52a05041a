import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// The condition of a test that needs the PostgreSQL test server (``TestHistoryBackend/serverURL``): it runs when
    /// one is set, and always where `CONNECT_RECON_TEST_REQUIRE_POSTGRES` is set (`.ci/run` sets it, so a server that
    /// did not start fails the tests there instead of skipping them); elsewhere it is reported as skipped, saying why.
    public static var postgreSQLServer: Self {
        .enabled(
            if: TestHistoryBackend.serverURL != nil || TestHistoryBackend.serverRequired,
            "no PostgreSQL server: set CONNECT_RECON_TEST_POSTGRES_URL to a postgresql:// URL (.ci/run starts one)")
    }
}
