import Foundation
import Testing

@Suite struct PostgresClusterAvailableTests {
    /// The README's test command starts a throw-away cluster and says where: without it the PostgreSQL half of
    /// the conformance suite would silently not run.
    @Test func testCommandProvidesAPostgresURL() {
        let url = ProcessInfo.processInfo.environment["WDIET_TEST_POSTGRES_URL"] ?? ""
        #expect(url.hasPrefix("postgres://"), "run the tests with scripts/test.sh, which starts PostgreSQL")
    }
}
