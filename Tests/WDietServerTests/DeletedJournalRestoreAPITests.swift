import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// The journal's Undo has the meals' window (issue 21 item 8, docs/operations.md "Deleted rows"): an entry deleted
/// 30 days and 1 minute ago answers `POST /api/v1/journal/entries/{id}/restore` as a missing one (404, the same
/// body), whether or not the sweep has emptied it yet; one deleted 29 days and 23:59 ago comes back whole. The clock
/// starts 2026-03-01T09:00:00Z; the sessions live 30 days, so the person signs in again.
@Suite("Journal restore after the undo window")
struct DeletedJournalRestoreAPITests {
    @Test("an entry deleted 30 days and 1 minute ago answers 404 as a missing one; 29 days and 23:59 ago it comes back", arguments: StoreBackend.allCases)
    func restoreWindow(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let email = "journal-undo-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let account = try await client.register(email)
            var session = APISession(token: account.token, userId: account.user.id)
            #expect(try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile()).status == .created)
            func saved(_ description: String) async throws -> String {
                let object = try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": description]).object()
                let entry = (object["entry"] as? [String: Any]) ?? object
                return try #require(entry["id"] as? String)
            }
            let idlis = try await saved("Two idlis and sambar")
            let chai = try await saved("Masala chai")

            #expect(try await client.api(.delete, "/api/v1/journal/entries/\(idlis)", session).status == .noContent)
            t.clock.advance(seconds: 120)
            #expect(try await client.api(.delete, "/api/v1/journal/entries/\(chai)", session).status == .noContent)
            t.clock.advance(seconds: 30 * 86_400 - 60)  // 30 days and 1 minute after the first delete

            let login = try await client.login(email)
            #expect(login.status == .ok)
            session = APISession(token: try login.json(SignedInBody.self).token, userId: account.user.id)

            let missing = try await client.api(.post, "/api/v1/journal/entries/\(UUID().uuidString.lowercased())/restore", session)
            let late = try await client.api(.post, "/api/v1/journal/entries/\(idlis)/restore", session)
            #expect(missing.status == .notFound)
            #expect(late.status == .notFound)
            #expect(String(buffer: late.body) == String(buffer: missing.body))
            let back = try await client.api(.post, "/api/v1/journal/entries/\(chai)/restore", session)
            #expect(back.status == .ok)
            let object = try back.object()
            let entry = (object["entry"] as? [String: Any]) ?? object
            #expect(entry["processedDescription"] as? String == "Masala chai")
        }
    }
}
