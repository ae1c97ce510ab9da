import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietStore
import WDietTestSupport

/// The Learn tab (its pages and its articles), the error page and the API's own messages (malformed requests, sync,
/// export and import, analytics events, what the stores refuse) in German for a client that asks for it
/// (`Accept-Language: de`), and in English, unchanged, for one that does not. Codes stay English identifiers.
@Suite("German: Learn, the error page and the API's messages")
struct GermanLearnAndErrorsTests {
    static let acceptGerman = "de-DE,de;q=0.9,en;q=0.8"

    static func page(_ client: some TestClientProtocol, _ web: WebTestSession, _ path: String, german: Bool = true) async throws -> TestResponse {
        var headers: HTTPFields = [.cookie: web.cookie]
        if german { headers[.acceptLanguage] = acceptGerman }
        return try await client.execute(uri: path, method: .get, headers: headers)
    }

    /// An API request, in German unless `german` is false.
    static func api(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, _ session: APISession?,
        body: String? = nil, german: Bool = true
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if german { headers[.acceptLanguage] = "de" }
        if body != nil { headers[.contentType] = "application/json" }
        if let session { headers[.authorization] = "Bearer \(session.token)" }
        return try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    static func json(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    // MARK: Learn

    @Test("the Learn index in German: Warum so?, the German titles in order, Min. Lesezeit, the welcome tip")
    func index() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let guest = try await client.signInAsGuest()
            let web = try await WebTestSession.make(for: guest.userId, in: t)
            let response = try await Self.page(client, web, "/learn")
            #expect(response.status == .ok)
            #expect(response.headers[.contentLanguage] == "de")
            let html = response.text
            #expect(html.contains("<html lang=\"de\">"))
            #expect(html.contains("<title>Wissen · "))
            #expect(html.contains("<h1 id=\"learn-title\">Warum so?</h1>"))
            #expect(html.contains("Die Wissenschaft hinter deinem Plan, einfach erklärt."))
            #expect(html.contains("aria-label=\"Über den Bereich Wissen\""))
            #expect(html.contains("aria-label=\"Feuer-Coach mit Brille\""))
            #expect(html.contains("<p class=\"tip__title\" id=\"tip-learn-welcome-title\">Willkommen im Bereich Wissen</p>"))
            #expect(html.contains(">Verstanden</button>"))
            let titles = ["Die MATADOR-Studie", "Warum Woche 1 mit Erhaltung beginnt", "Warum ein Essensfenster von 6 Stunden"]
            let positions = titles.compactMap { html.range(of: "<span class=\"learn-card__title\">\($0)</span>")?.lowerBound }
            #expect(positions.count == 3)
            #expect(positions == positions.sorted())
            #expect(html.contains("Min. Lesezeit</span>"))
            #expect(!html.contains("min read"))
            #expect(!html.contains("Why like this?"))

            let english = try await Self.page(client, web, "/learn", german: false).text
            #expect(english.contains("<html lang=\"en\">"))
            #expect(english.contains("<h1 id=\"learn-title\">Why like this?</h1>"))
            #expect(english.contains("<span class=\"learn-card__title\">The MATADOR study</span>"))
            #expect(english.contains("min read</span>"))
        }
    }

    @Test("a German article: its headings, the study's figures with decimal commas, the table's label, Quellen")
    func article() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let guest = try await client.signInAsGuest()
            let web = try await WebTestSession.make(for: guest.userId, in: t)
            let response = try await Self.page(client, web, "/learn/matador-study")
            #expect(response.status == .ok)
            let html = response.text
            #expect(html.contains("<title>Die MATADOR-Studie · "))
            #expect(html.contains("<h1 id=\"article-title\">Die MATADOR-Studie</h1>"))
            #expect(html.contains("Min. Lesezeit · Warum so?</p>"))
            for heading in ["Was die Forschenden gemacht haben", "Was sie herausgefunden haben", "So nutzt w-diet die Studie", "Quellen"] {
                #expect(html.contains("<h2>\(heading)</h2>"), "\(heading)")
            }
            for figure in ["<strong>51 Männer</strong>", "<strong>67 % ihres Energiebedarfs zur Erhaltung</strong>", "<strong>16 Wochen</strong>",
                           "14,1 vs. 9,1 kg", "12,3 vs. 8,0 kg", "<td>9,1 kg</td>", "<td><strong>14,1 kg</strong></td>",
                           "2.500 kcal", "2.000 kcal", "1.675 kcal", "„Tag X von 14 · Erhaltungsphase“"] {
                #expect(html.contains(figure), "\(figure)")
            }
            #expect(html.contains("<div class=\"article__table\" role=\"region\" aria-label=\"Tabelle\" tabindex=\"0\">"))
            #expect(html.contains("<a rel=\"noopener\" href=\"https://doi.org/10.1038/ijo.2017.206\">"))
            #expect(html.contains("<nav class=\"article-nav\" aria-label=\"Zurück\">"))
            #expect(html.contains("<span aria-hidden=\"true\">←</span> Wissen</a>"))
            #expect(html.contains("<h2 id=\"learn-more-title\">Weiterlesen</h2>"))
            #expect(html.contains(">Zurück zu Wissen</a>"))
            #expect(html.contains("Warum Woche 1 mit Erhaltung beginnt"))

            let english = try await Self.page(client, web, "/learn/matador-study", german: false).text
            #expect(english.contains("<h1 id=\"article-title\">The MATADOR study</h1>"))
            #expect(english.contains("aria-label=\"Table\""))
            #expect(english.contains("min read · Why like this?</p>"))
        }
    }

    @Test("every English article has its German file, with the same order, emoji, links and number of sections")
    func everyArticleInGerman() throws {
        let english = try LearnLibrary.articles(in: .english)
        #expect(LearnLibrary.slugs(in: .german) == Set(english.map(\.slug)), "a German file is missing in Resources/learn/de/")
        let german = try LearnLibrary.articles(in: .german)
        #expect(german.map(\.slug) == english.map(\.slug))
        for (en, de) in zip(english, german) {
            #expect(de.title != en.title, "\(de.slug) is not translated")
            #expect(de.summary != en.summary, "\(de.slug) is not translated")
            #expect(de.emoji == en.emoji && de.order == en.order, "\(de.slug)")
            #expect(Self.links(in: de.html) == Self.links(in: en.html), "\(de.slug): the same sources and cross-links")
            #expect(de.html.components(separatedBy: "<h2>").count == en.html.components(separatedBy: "<h2>").count, "\(de.slug)")
            #expect(de.html.contains("<h2>Quellen</h2>"), "\(de.slug)")
            for forbidden in ["style=", "<style", "<script", "javascript:", "onclick=", "<iframe"] {
                #expect(!de.html.lowercased().contains(forbidden), "\(de.slug): \(forbidden)")
            }
        }
    }

    static func links(in html: String) -> [String] {
        html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.components(separatedBy: "\"").first }
    }

    @Test("the reading time is one plural: 1 Min. Lesezeit, 4 Min. Lesezeit; 1 min read in English")
    func readingTime() {
        #expect(Strings.german("learn.readingTime", count: 1) == "1 Min. Lesezeit")
        #expect(Strings.german("learn.readingTime", count: 4) == "4 Min. Lesezeit")
        #expect(Strings.english("learn.readingTime", count: 4) == "4 min read")
    }

    // MARK: The error page

    @Test("an unknown page is the German error page: Etwas ist schiefgelaufen, Erneut versuchen, Zurück")
    func errorPage() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let guest = try await client.signInAsGuest()
            let web = try await WebTestSession.make(for: guest.userId, in: t)
            let response = try await Self.page(client, web, "/learn/no-such-article")
            #expect(response.status == .notFound)
            let html = response.text
            #expect(html.contains("<html lang=\"de\">"))
            #expect(html.contains("<title>Etwas ist schiefgelaufen · "))
            #expect(html.contains("<h1 id=\"error-title\">Etwas ist schiefgelaufen</h1>"))
            #expect(html.contains("<p class=\"error-page__message\">Diese Seite konnten wir nicht finden.</p>"))
            #expect(html.contains("aria-label=\"Warnung\""))
            #expect(html.contains(">Erneut versuchen</a>"))
            #expect(html.contains("href=\"/\">Zurück</a>"))

            let english = try await Self.page(client, web, "/learn/no-such-article", german: false).text
            #expect(english.contains("<h1 id=\"error-title\">Something went wrong</h1>"))
            #expect(english.contains("We couldn&#39;t find that page."))
            #expect(english.contains(">Try Again</a>"))
        }
    }

    @Test("a failed page says in German that the data is safe")
    func failedPage() throws {
        let response = try Strings.$current.withValue(.german) {
            try WebErrorPage.response(for: APIError.from(CocoaError(.fileReadUnknown)), path: "/dashboard")
        }
        #expect(response.status == .internalServerError)
        #expect(response.headers[.contentLanguage] == "de")
    }

    // MARK: The API

    @Test("malformed requests: German messages and field messages, English codes")
    func malformedRequests() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()

            let unauthorized = try await Self.api(client, .post, "/api/v1/events", nil, body: "{}")
            #expect(unauthorized.status == .unauthorized)
            #expect(try unauthorized.errorDetail().code == "unauthorized")
            #expect(try unauthorized.errorDetail().message == "Bitte melde dich an, um weiterzumachen.")

            let notJSON = try await Self.api(client, .post, "/api/v1/events", session, body: "{nope")
            #expect(notJSON.status == .badRequest)
            #expect(try notJSON.errorDetail().message == "Der Inhalt der Anfrage ist kein gültiges JSON.")

            let empty = try await Self.api(client, .post, "/api/v1/events", session, body: "")
            #expect(try empty.errorDetail().message == "Der Inhalt der Anfrage ist leer: Sende ein JSON-Objekt.")

            let missing = try await Self.api(client, .post, "/api/v1/events", session, body: "{}")
            #expect(missing.status == .badRequest)
            #expect(try missing.errorDetail().code == "bad_request")
            #expect(try missing.errorDetail().message == "Die Anfrage enthält ungültige Werte.")
            #expect(try missing.errorDetail().fields == ["events": "Dieser Wert fehlt"])

            let array = try await Self.api(client, .post, "/api/v1/events", session, body: "[]")
            #expect(try array.errorDetail().message == "Der Inhalt der Anfrage muss ein JSON-Objekt sein.")

            let wrongType = try await Self.api(client, .post, "/api/v1/events", session, body: #"{"events": [{"name": 3}]}"#)
            #expect(try wrongType.errorDetail().fields == ["events.0.name": "Erwartet wird Text"])

            let instant = try await Self.api(client, .post, "/api/v1/events", session,
                                             body: #"{"events": [{"name": "screen_view", "occurredAt": "yesterday"}]}"#)
            #expect(try instant.errorDetail().fields == ["events.0.occurredAt": "Erwartet wird ein Zeitpunkt nach ISO 8601 wie 2026-03-01T12:30:00Z"])

            let date = try await Self.api(client, .get, "/api/v1/meals?date=01.03.2026", session)
            #expect(date.status == .badRequest)
            #expect(try date.errorDetail().message == "Der Parameter date muss ein Datum im Format JJJJ-MM-TT sein.")
            #expect(try date.errorDetail().fields == ["date": "Bitte gib ein Datum im Format JJJJ-MM-TT an"])

            let unknownRoute = try await Self.api(client, .get, "/api/v1/no-such-thing", session)
            #expect(unknownRoute.status == .notFound)
            #expect(try unknownRoute.errorDetail().code == "http_404")
            #expect(try unknownRoute.errorDetail().message == "Nicht gefunden")

            // Without the header: English, as before.
            let english = try await Self.api(client, .post, "/api/v1/events", session, body: "{}", german: false)
            #expect(try english.errorDetail().message == "The request has malformed values.")
            #expect(try english.errorDetail().fields == ["events": "This value is required"])
            let englishRoute = try await Self.api(client, .get, "/api/v1/no-such-thing", session, german: false)
            #expect(try englishRoute.errorDetail().message == "Not Found")
        }
    }

    @Test("analytics events: every refusal in German, by the event's index")
    func events() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            func refusal(_ events: [[String: Any]]) async throws -> APIErrorBody.Detail {
                let response = try await Self.api(client, .post, "/api/v1/events", session, body: try Self.json(["events": events]))
                #expect(response.status == .unprocessableContent)
                return try response.errorDetail()
            }
            let none = try await refusal([])
            #expect(none.message == "Sende mindestens ein Ereignis.")
            let many = try await refusal(Array(repeating: ["name": "screen_view"], count: 51))
            #expect(many.message == "Sende höchstens 50 Ereignisse auf einmal.")
            #expect(try await refusal([["name": "dancing"]]).fields == ["events[0].name": "Unbekannter Ereignisname"])
            #expect(try await refusal([["name": "meal_logged"]]).fields == ["events[0].name": "Dieses Ereignis zeichnet der Server selbst auf"])
            #expect(try await refusal([["name": "screen_view", "properties": ["Bad Name": "x"]]]).fields
                == ["events[0].properties": "Eigenschaftsnamen sind in snake_case, höchstens 40 Zeichen"])
            #expect(try await refusal([["name": "screen_view", "properties": ["screen": String(repeating: "x", count: 201)]]]).fields
                == ["events[0].properties.screen": "Höchstens 200 Zeichen"])
            #expect(try await refusal([["name": "screen_view", "occurredAt": "2020-01-01T00:00:00Z"]]).fields
                == ["events[0].occurredAt": "Dieser Zeitpunkt liegt zu weit von jetzt entfernt"])
            #expect(try await refusal([["name": "screen_view", "id": "nope"]]).fields
                == ["events[0].id": "Erwartet wird eine ID wie 3F2504E0-4F89-11D3-9A0C-0305E82C3301"])
        }
    }

    @Test("sync: refusals and push results in German; a replay is answered in the language of the asking request")
    func sync() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()

            let noCursor = try await Self.api(client, .get, "/api/v1/sync/pull", session)
            #expect(try noCursor.errorDetail().code == "invalid_cursor")
            #expect(try noCursor.errorDetail().message == "Sende cursor=0 für alles oder den nextCursor deines letzten Pulls")
            let ahead = try await Self.api(client, .get, "/api/v1/sync/pull?cursor=99", session)
            #expect(try ahead.errorDetail().message.hasPrefix("Der Cursor 99 ist größer als die letzte Änderung dieses Kontos ("))
            let limit = try await Self.api(client, .get, "/api/v1/sync/pull?cursor=0&limit=0", session)
            #expect(try limit.errorDetail().fields?["limit"]?.hasPrefix("Das Limit ist eine ganze Zahl von 1 bis ") == true)

            let tip = try Self.json(["changes": [["idempotencyKey": "k1", "entity": "tip", "op": "upsert"]]])
            let tipRefused = try await Self.api(client, .post, "/api/v1/sync/push", session, body: tip)
            #expect(tipRefused.status == .unprocessableContent)
            #expect(try tipRefused.errorDetail().code == "invalid_change")
            #expect(try tipRefused.errorDetail().message
                == "Änderung 0 (k1): Tipps werden nur abgeholt; blende einen Tipp mit POST /api/v1/tips/{tip}/dismiss aus")

            let twice = try Self.json(["changes": [
                ["idempotencyKey": "k1", "entity": "weight", "op": "delete", "id": UUID().uuidString],
                ["idempotencyKey": "k1", "entity": "weight", "op": "delete", "id": UUID().uuidString],
            ]])
            let twiceRefused = try await Self.api(client, .post, "/api/v1/sync/push", session, body: twice)
            #expect(try twiceRefused.errorDetail().fields == ["changes.1": "Dieser Idempotenzschlüssel kommt in diesem Push zweimal vor"])

            let id = UUID().uuidString
            let delete = try Self.json(["changes": [
                ["idempotencyKey": "del-1", "entity": "meal", "op": "delete", "id": id],
            ]])
            let german = try await Self.api(client, .post, "/api/v1/sync/push", session, body: delete)
            #expect(german.status == .ok)
            let results = try #require(try german.object()["results"] as? [[String: Any]])
            #expect(results.first?["status"] as? String == "ignored")
            #expect(results.first?["message"] as? String == "Nicht auf dem Server: nichts zu löschen")
            // The store keeps the first answer; asked again in English, it is answered in English.
            let replay = try await Self.api(client, .post, "/api/v1/sync/push", session, body: delete, german: false)
            let replayed = try #require(try replay.object()["results"] as? [[String: Any]])
            #expect(replayed.first?["message"] as? String == "Not on the server: nothing to delete")
        }
    }

    @Test("a lost edit names the row in German, per kind: Diese Mahlzeit, Dieser Gewichtseintrag, Dieses Profil")
    func syncMessages() {
        Strings.$current.withValue(.german) {
            #expect(SyncMessages.lostEdit(.meal, deleted: false)
                == "Diese Mahlzeit wurde auf einem anderen Gerät geändert; die andere Änderung wurde behalten")
            #expect(SyncMessages.lostEdit(.weight, deleted: true)
                == "Dieser Gewichtseintrag wurde auf einem anderen Gerät gelöscht; deine Änderung wurde nicht übernommen")
            #expect(SyncMessages.lostDelete(.profile)
                == "Dieses Profil wurde auf einem anderen Gerät geändert, nachdem du es gelöscht hast; es bleibt erhalten")
            #expect(SyncMessages.ignoredDelete(deleted: true) == "Schon gelöscht")
        }
        // Every kind has its messages in both languages (the keys are made from the kind's name).
        for language in Language.allCases {
            Strings.$current.withValue(.of(language)) {
                for entity in [SyncEntity.meal, .weight, .profile, .event, .row, .tip] {
                    for message in [SyncMessages.lostEdit(entity, deleted: false), SyncMessages.lostEdit(entity, deleted: true),
                                    SyncMessages.lostDelete(entity)] {
                        #expect(!message.hasPrefix("sync."), "\(language.rawValue): \(entity) has no message")
                    }
                }
            }
        }
        #expect(SyncMessages.lostEdit(.meal, deleted: false) == "This meal was changed on another device; the other change was kept")
        #expect(SyncMessages.lostDelete(.row) == "This entry was changed on another device after you deleted it; it was kept")
    }

    @Test("export and import: German refusals, a German plural, and a store's English refusal answered in German",
          arguments: StoreBackend.allCases)
    func exportAndImport(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()

            let format = try await Self.api(client, .get, "/api/v1/export?format=xml", session)
            #expect(format.status == .badRequest)
            #expect(try format.errorDetail().message == "Das Format muss json oder csv sein.")
            #expect(try format.errorDetail().fields == ["format": "Erwartet wird json oder csv"])

            let exported = try await Self.api(client, .get, "/api/v1/export", session).object()
            let fresh = try await client.signInAsGuest()

            let other = try await Self.api(client, .post, "/api/v1/import", fresh, body: try Self.json(["meals": []]))
            #expect(try other.errorDetail().message == "Das ist kein w-diet-Export.")
            #expect(try other.errorDetail().fields == ["format": "Erwartet wird „w-diet-export“"])

            var future = exported
            future["formatVersion"] = 2
            let version = try await Self.api(client, .post, "/api/v1/import", fresh, body: try Self.json(future))
            #expect(try version.errorDetail().message == "Die Formatversion dieses Exports (2) kann dieser Server nicht lesen.")
            #expect(try version.errorDetail().fields == ["formatVersion": "Erwartet wird 1"])

            var refused = exported
            refused["dismissedTips"] = [["tip": "", "dismissedAt": "2026-03-01T09:00:00.000Z", "version": 1]]
            var profileless = exported
            profileless["dismissedTips"] = [["tip": "", "dismissedAt": "2026-03-01T09:00:00.000Z", "version": 1],
                                            ["tip": "", "dismissedAt": "2026-03-01T09:00:00.000Z", "version": 1]]
            let values = try await Self.api(client, .post, "/api/v1/import", fresh, body: try Self.json(profileless))
            #expect(values.status == .unprocessableContent)
            #expect(try values.errorDetail().message == "Der Export enthält 2 Werte, die sich nicht importieren lassen.")
            #expect(try values.errorDetail().fields == ["dismissedTips.0.tip": "Dieser Wert fehlt", "dismissedTips.1.tip": "Dieser Wert fehlt"])
            let one = try await Self.api(client, .post, "/api/v1/import", fresh, body: try Self.json(refused))
            #expect(try one.errorDetail().message == "Der Export enthält 1 Wert, der sich nicht importieren lässt.")

            // The account that exported has data: the store refuses in English, the API answers in German.
            let full = try await Self.api(client, .post, "/api/v1/import", session, body: try Self.json(exported))
            #expect(full.status == .conflict)
            #expect(try full.errorDetail().code == "account_not_empty")
            #expect(try full.errorDetail().message
                == "Dieses Konto enthält schon Daten. Importiere deine Daten in ein neues Konto, bevor du es einrichtest.")
            let english = try await Self.api(client, .post, "/api/v1/import", session, body: try Self.json(exported), german: false)
            #expect(try english.errorDetail().message == "This account already has data. Import into a new account, before onboarding.")
        }
    }

    @Test("a store's message made outside the request is answered in the request's language; other text is left as it is")
    func storeMessages() {
        Strings.$current.withValue(.german) {
            #expect(APIError.from(StoreError.notFound("User not found")).message == "Konto nicht gefunden")
            #expect(APIError.from(StoreError.notFound("Meal not found")).message == "Mahlzeit nicht gefunden")
            #expect(APIError.from(StoreError.conflict("An account with this email already exists")).message
                == "Mit dieser E-Mail-Adresse gibt es schon ein Konto")
            #expect(APIError.from(StoreError.invalid("Calories must be between 1-9999")).message != "Calories must be between 1-9999")
            #expect(APIError.from(StoreError.invalid("Something no catalog holds")).message == "Something no catalog holds")
            #expect(APIError.from(StoreError.unavailable("The store is busy; please try again")).message
                == "Der Dienst ist gerade nicht erreichbar. Bitte versuch es noch einmal.")
            #expect(APIError.from(CocoaError(.fileReadUnknown)).message == "Bei uns ist etwas schiefgelaufen. Bitte versuch es noch einmal.")
            #expect(APIError.from(StoreError.catalogMissing("The food catalog is empty. Import it …")).message
                .hasPrefix("Die Lebensmitteldatenbank ist leer."))
            #expect(APIError.profileMissing.message == "Noch kein Profil: Schließ zuerst die Einrichtung ab.")
            #expect(InvalidInput(["a": "x", "b": "y"]).message == "Bitte prüfe die markierten Felder.")
        }
        #expect(APIError.from(StoreError.notFound("User not found")).message == "User not found")
        #expect(APIError.from(StoreError.catalogMissing("The food catalog is empty. Import it …")).message
            == "The food catalog is empty. Import it …")
        #expect(APIError.profileMissing.message == "No profile yet: finish onboarding first.")
    }
}
