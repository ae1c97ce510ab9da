import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// The app lock's PIN page without script (issue 20 item 4; docs/challenge.md "App lock in this browser"): its form
/// posts the PIN to `POST /challenge/lock` (never into the address, as a GET form would), and the server answers as
/// the API's verify does — the right PIN goes on to the page asked for (a Challenge path only), a wrong one shows
/// the page again with the attempts left, the fifth wrong one in a row ends every session. Both backends.
@Suite("Challenge lock page without script")
struct ChallengeLockPageTests {
    static let clock = Fixtures.utc("2026-12-01T09:00:00Z")

    static func unlock(_ client: some TestClientProtocol, _ session: WebDashboardSession, pin: String, next: String,
                       language: String = "en") async throws -> TestResponse {
        let form = "_csrf=\(session.csrf)&pin=\(pin)&next=\(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        return try await client.execute(
            uri: "/challenge/lock", method: .post,
            headers: [.cookie: session.cookie, .contentType: "application/x-www-form-urlencoded", .acceptLanguage: language],
            body: ByteBuffer(string: form))
    }

    @Test("the PIN form posts; right, wrong, a malformed PIN and the fifth wrong one answer as the API does", arguments: StoreBackend.allCases)
    func lockPageWorksWithoutScript(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { _, client in
            let session = try await WebDashboardSession.withProfile(client)
            #expect(try await session.api(client, .post, "/api/v1/challenge", json: ["goalWeight": 75, "startDate": "2026-11-30"]).status == .created)
            #expect(try await session.api(client, .put, "/api/v1/challenge/app-lock", json: ["pin": "2468"]).status == .noContent)
            #expect(try await session.api(client, .put, "/api/v1/challenge/settings", json: ["appLock": true]).status == .ok)

            // The page's form is a POST with the CSRF token and the page to go on to; no "needs JavaScript" note.
            let page = try await session.get(client, "/challenge/lock?next=/challenge/log")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"method="post" action="/challenge/lock""#))
            #expect(page.text.contains(#"<input type="hidden" name="next" value="/challenge/log">"#))
            #expect(page.text.contains(#"name="_csrf" value="\#(session.csrf)""#))
            #expect(!page.text.contains("noscript"))

            // A wrong PIN: the page again, 422, the attempts left in the field's message.
            let wrong = try await Self.unlock(client, session, pin: "1111", next: "/challenge/log")
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"<p class="ch-field__error" id="ch-lock-error" role="alert">That PIN is not right. 4 attempts left before you need to sign in again.</p>"#))
            #expect(wrong.text.contains(#"aria-invalid="true""#))
            #expect(wrong.text.contains(#"name="next" value="/challenge/log""#))
            // Not a PIN: said so, and not counted as an attempt (the next wrong one leaves 3).
            let malformed = try await Self.unlock(client, session, pin: "12", next: "/challenge/log")
            #expect(malformed.status == .unprocessableContent)
            #expect(malformed.text.contains("A PIN has 4 to 6 digits."))
            let german = try await Self.unlock(client, session, pin: "0000", next: "/challenge/log", language: "de")
            #expect(german.text.contains("Diese PIN stimmt nicht. Noch 3 Versuche, dann musst du dich neu anmelden."))

            // The right PIN goes on to the page asked for; another site or the lock page itself is not a way on.
            let right = try await Self.unlock(client, session, pin: "2468", next: "/challenge/log?date=2026-11-30")
            #expect(right.status == .seeOther)
            #expect(right.headers[.location] == "/challenge/log?date=2026-11-30")
            for elsewhere in ["https://example.com/challenge", "//example.com", "/challenge/lock", "/dashboard"] {
                let away = try await Self.unlock(client, session, pin: "2468", next: elsewhere)
                #expect(away.headers[.location] == "/challenge", "\(elsewhere)")
            }

            // The right PIN started the count over: four wrong ones leave 4, 3, 2, 1; the fifth ends the session.
            for left in [4, 3, 2] {
                let again = try await Self.unlock(client, session, pin: "0000", next: "/challenge")
                #expect(again.text.contains("That PIN is not right. \(left) attempts left"), "\(left)")
            }
            let last = try await Self.unlock(client, session, pin: "0000", next: "/challenge")
            #expect(last.text.contains("That PIN is not right. 1 attempt left before you need to sign in again."))
            let fifth = try await Self.unlock(client, session, pin: "0000", next: "/challenge")
            #expect(fifth.status == .seeOther)
            #expect(fifth.headers[.location] == "/login")
            let after = try await session.get(client, "/challenge")
            #expect(after.status == .seeOther)
            #expect(after.headers[.location] != "/challenge")
        }
    }

    @Test("Settings says that without script the lock cannot lock", arguments: StoreBackend.allCases)
    func settingsSaysTheLockNeedsScript(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { _, client in
            let session = try await WebDashboardSession.withProfile(client)
            #expect(try await session.api(client, .post, "/api/v1/challenge", json: ["goalWeight": 75, "startDate": "2026-11-30"]).status == .created)
            let settings = try await session.get(client, "/challenge/settings")
            #expect(settings.text.contains(#"<noscript><p class="ch-field__hint" id="ch-lock-noscript">Without JavaScript this browser cannot tell how long you were away, so the app lock does not lock here.</p></noscript>"#))
        }
    }
}
