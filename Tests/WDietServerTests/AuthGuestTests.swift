import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

@Suite("Auth: guests and upgrading them")
struct AuthGuestTests {
    @Test("a guest is a user without an email", arguments: StoreBackend.allCases)
    func guest(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let guest = try await client.guest()
            #expect(guest.user.email == nil)
            #expect(guest.user.isGuest)
            let me = try await client.me(guest.token)
            #expect(me.status == .ok)
            #expect(try me.json(AccountUserBody.self) == guest.user)

            let other = try await client.guest()
            #expect(other.user.id != guest.user.id)
        }
    }

    @Test("upgrading keeps the user id and the guest's meals, and the new password signs in", arguments: StoreBackend.allCases)
    func upgradeKeepsEverything(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let guest = try await client.guest()
            let zone = Fixtures.zone("Europe/Berlin")
            let meal = Meal(name: "Porridge", kcal: 350, loggedAt: Fixtures.utc("2026-03-01T08:30:00Z"))
            let saved = try await t.services.meals.saveMeal(meal, userId: guest.user.id, timeZone: zone)

            let response = try await client.send(
                .post, "/api/v1/auth/upgrade", body: credentialsJSON("Ana@Example.com", "correct horse"), token: guest.token
            )
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            let upgraded = try response.json(SignedInBody.self)
            #expect(upgraded.user == AccountUserBody(id: guest.user.id, email: "ana@example.com", isGuest: false))

            #expect(try await t.services.meals.meals(userId: guest.user.id, on: Fixtures.date("2026-03-01")) == [saved])
            #expect(try await t.services.meals.meal(userId: guest.user.id, id: meal.id) == saved)

            let login = try await client.login("ana@example.com", "correct horse")
            #expect(login.status == .ok)
            #expect(try login.json(SignedInBody.self).user.id == guest.user.id)

            let me = try await client.me(upgraded.token)
            #expect(try me.json(AccountUserBody.self).isGuest == false)

            let events = try await t.services.analytics.events(userId: guest.user.id)
            #expect(events.map(\.name) == [.accountLinked])
        }
    }

    @Test("upgrading ends the guest's sessions and hands out a new token", arguments: StoreBackend.allCases)
    func upgradeRotatesSessions(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let guest = try await client.guest()
            let upgraded = try await client.send(
                .post, "/api/v1/auth/upgrade", body: credentialsJSON("ana@example.com", "correct horse"), token: guest.token
            ).json(SignedInBody.self)
            #expect(upgraded.token != guest.token)
            #expect(try await client.me(guest.token).status == .unauthorized)
            #expect(try await client.me(upgraded.token).status == .ok)
        }
    }

    @Test(
        "upgrading to a taken email is a 409 and leaves the guest a guest",
        arguments: StoreBackend.allCases, ["ana@example.com", "ANA@example.com"])
    func upgradeToTakenEmail(_ backend: StoreBackend, _ email: String) async throws {
        try await TestApp.test(backend) { _, client in
            _ = try await client.register("ana@example.com")
            let guest = try await client.guest()
            let response = try await client.send(
                .post, "/api/v1/auth/upgrade", body: credentialsJSON(email, "correct horse"), token: guest.token
            )
            #expect(response.status == .conflict)
            #expect(response.apiError?.code == "email_taken")
            #expect(response.apiError?.fields == ["email": "An account with this email already exists"])

            let me = try await client.me(guest.token)
            #expect(try me.json(AccountUserBody.self) == guest.user)
        }
    }

    @Test("an account that already has an email cannot be upgraded", arguments: StoreBackend.allCases)
    func upgradeAnAccount(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let account = try await client.register("ana@example.com")
            let response = try await client.send(
                .post, "/api/v1/auth/upgrade", body: credentialsJSON("other@example.com", "correct horse"), token: account.token
            )
            #expect(response.status == .conflict)
            #expect(response.apiError?.code == "not_a_guest")
            #expect(try await client.me(account.token).json(AccountUserBody.self).email == "ana@example.com")
        }
    }

    @Test("upgrading needs a session, and checks the form like registering does", arguments: StoreBackend.allCases)
    func upgradeNeedsSessionAndValidInput(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let anonymous = try await client.send(.post, "/api/v1/auth/upgrade", body: credentialsJSON("ana@example.com", "correct horse"))
            #expect(anonymous.status == .unauthorized)

            let guest = try await client.guest()
            let invalid = try await client.send(.post, "/api/v1/auth/upgrade", body: credentialsJSON("ana@example", "short"), token: guest.token)
            #expect(invalid.status == .unprocessableContent)
            #expect(Set(invalid.apiError?.fields?.keys.map { $0 } ?? []) == ["email", "password"])
            #expect(try await client.me(guest.token).json(AccountUserBody.self).isGuest)
        }
    }
}
