import HTTPTypes
import Hummingbird
import WDietCore

/// Puts the whole request in the reader's language: everything below it (validation messages, API errors, pages)
/// reads `Strings.current`. This outermost layer takes the browser's `Accept-Language`; `AccountSettingsMiddleware`
/// narrows it to the account's own choice once `SessionAuthMiddleware` knows who is asking. The response says which
/// it was (`Content-Language`), and that it depends on the header (`Vary`).
struct LanguageMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let language = Language.preferred(acceptLanguage: request.headers[.acceptLanguage]) ?? .english
        var response = try await Strings.$current.withValue(.of(language)) {
            try await next(request, context)
        }
        if response.headers[.contentLanguage] == nil {
            response.headers[.contentLanguage] = Strings.of(language).language.tag
        }
        response.headers[values: .vary].append("Accept-Language")
        return response
    }
}

/// Runs the rest of a signed-in request in the language its account chose in Settings (`accountLanguage`, read
/// with the session), and says so in `Content-Language`. Without a choice the browser's language stays. Its pages
/// are written in the account's theme too (`PageTheme.chosen`), for the same reason: one place that applies what the
/// account chose.
///
/// An error must be answered below it, while the account's language is still current: the `APIErrorMiddleware`
/// inside it does that. Only the router's "no such route" passes, for `FileMiddleware` (and then the outer
/// `APIErrorMiddleware`, in the browser's language, as for anyone).
struct AccountSettingsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let appearance = context.accountAppearance {
            return try await PageTheme.$chosen.withValue(appearance) { try await answer(request, context: context, next: next) }
        }
        return try await answer(request, context: context, next: next)
    }

    private func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let language = context.accountLanguage else { return try await next(request, context) }
        var response = try await Strings.withAccountLanguage(language) { try await next(request, context) }
        // Said here because `LanguageMiddleware` answers for the browser's language, not the account's.
        if response.headers[.contentLanguage] == nil { response.headers[.contentLanguage] = language.tag }
        return response
    }
}

extension Strings {
    /// Runs `work` in an account's chosen language; with no choice, in the language already current.
    static func withAccountLanguage<T>(_ language: Language?, _ work: () async throws -> T) async rethrows -> T {
        guard let language, language != Strings.current.language else { return try await work() }
        return try await Strings.$current.withValue(.of(language), operation: work)
    }
}

/// The theme pages are written in: the signed-in account's choice (`<html data-theme>`, so the first paint is in it),
/// nil for Auto, where the stylesheet follows the system's `prefers-color-scheme`.
enum PageTheme {
    @TaskLocal static var chosen: Appearance?
}
