import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// 001 §12.5 "Sync Conflict": a save against a stale version is 409 with both copies, so the page can offer
/// "Keep Local" or "Use Server".
@Suite("Profile versions and conflicts")
struct ProfileConflictTests {
    @Test("each save moves the version on; a stale baseVersion is 409 with current, local and their differences", arguments: StoreBackend.allCases)
    func staleVersion(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let first = try await client.api(.get, "/api/v1/profile", session).object()
            let base = try #require(number(first["version"]))

            // Another device saves a height of 183 cm.
            let other = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["heightCm": 183, "baseVersion": Int(base)]))
            #expect(other.status == .ok)
            let serverVersion = try #require(number(try other.object()["version"]))
            #expect(serverVersion > base)

            // This device edited 82 kg and Vegan from the old version.
            let stale = try await client.api(
                .put, "/api/v1/profile", session,
                json: APIFixtures.profile(["weightKg": 82, "dietaryPreferences": ["Vegan"], "baseVersion": Int(base)])
            )
            #expect(stale.status == .conflict)
            let error = try #require(try stale.object()["error"] as? [String: Any])
            #expect(error["code"] as? String == "conflict")
            let current = try #require(error["current"] as? [String: Any])
            let local = try #require(error["local"] as? [String: Any])
            #expect(number(current["heightCm"]) == 183)
            #expect(number(current["weightKg"]) == 80)
            #expect(number(current["version"]) == serverVersion)
            #expect(number(local["heightCm"]) == 180)
            #expect(number(local["weightKg"]) == 82)
            #expect(local["dietaryPreferences"] as? [String] == ["Vegan"])
            #expect(number(error["baseVersion"]) == base)
            #expect(error["differences"] as? [String] == ["heightCm", "weightKg", "dietaryPreferences"])

            // Nothing of the stale edit was saved, not even its weight; "Keep Local" sends it again against the
            // server's version, and the weight is logged then.
            #expect(number(try await client.api(.get, "/api/v1/profile", session).object()["weightKg"]) == 80)
            let noWeights = try await client.api(.get, "/api/v1/weights", session).object()["entries"] as? [Any]
            #expect(noWeights?.isEmpty == true)
            let kept = try await client.api(
                .put, "/api/v1/profile", session,
                json: APIFixtures.profile(["weightKg": 82, "dietaryPreferences": ["Vegan"], "baseVersion": Int(serverVersion)])
            )
            #expect(kept.status == .ok)
            #expect(number(try kept.object()["weightKg"]) == 82)
        }
    }
}
