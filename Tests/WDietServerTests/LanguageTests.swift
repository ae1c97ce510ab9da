import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietCore

/// The request's language from `Accept-Language`, as responses declare it, and the scripts' catalog file.
@Suite("Language of a request")
struct LanguageTests {
    static let acceptLanguage = HTTPField.Name("Accept-Language")!

    @Test("a German browser gets a German page that says so; others get English")
    func pagesFollowTheBrowser() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            try await client.execute(uri: "/login", method: .get, headers: [Self.acceptLanguage: "de-DE,de;q=0.9,en;q=0.8"]) { response in
                let html = String(buffer: response.body)
                #expect(response.headers[.contentLanguage] == "de")
                #expect(response.headers[values: .vary].contains("Accept-Language"))
                #expect(html.contains(#"<html lang="de">"#))
                #expect(html.contains(">Zum Inhalt springen<"))
                #expect(html.contains(#"<script src="/strings/\#(StringsScript.name(for: .german)).js" defer>"#))
            }
            for header in ["fr-FR,fr;q=0.9", "", "en-GB"] {
                try await client.execute(uri: "/login", method: .get, headers: [Self.acceptLanguage: header]) { response in
                    let html = String(buffer: response.body)
                    #expect(response.headers[.contentLanguage] == "en")
                    #expect(html.contains(#"<html lang="en">"#))
                    #expect(html.contains(">Skip to content<"))
                }
            }
        }
    }

    @Test("API messages follow Accept-Language too")
    func apiMessages() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            try await client.execute(uri: "/api/v1/auth/me", method: .get, headers: [Self.acceptLanguage: "de"]) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentLanguage] == "de")
                let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: response.body))
                #expect(body.error.code == "unauthorized")
                #expect(body.error.message == Strings.german("errors.unauthorized"))
                #expect(body.error.message != Strings.english("errors.unauthorized"))
            }
        }
    }

    @Test("the scripts' catalog is served under a name that changes with it, cached for a year")
    func stringsScript() async throws {
        let t = try TestApp()
        let name = StringsScript.name(for: .german)
        #expect(name.hasPrefix("de-"))
        #expect(name != StringsScript.name(for: .english))
        try await t.app.test(.router) { client in
            try await client.execute(uri: "/strings/\(name).js", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(body.hasPrefix("window.WDietStrings = {"))
                #expect(body.contains(#""common.skipToContent":"Zum Inhalt springen""#))
                #expect(body.contains(#""coach.streak":{"one":"{count} Tag in Folge","other":"{count} Tage in Folge"}"#))
                #expect(body.contains(#"window.WDietLanguage = "de";"#))
            }
            // An old or made-up fingerprint is not served (a page always links the current one).
            try await client.execute(uri: "/strings/de-00000000.js", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
