import Hummingbird

/// The web app's onboarding (account step, the 8 profile steps), sign in and out.
///
/// Foundation version: the account step with "Continue without an account" and "Create account", both plain forms
/// that work without script. The profile steps come next.
struct OnboardingPages: Sendable {
    let services: AppServices
    let accounts: AccountService
    let configuration: ServerConfiguration

    struct AccountStep {
        var chrome: PageChrome
        var email: String = ""
        var emailError: String?
        var passwordError: String?
        var formError: String?
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("/onboarding") { _, context in
            if context.userId != nil { throw WebRedirect(location: "/") }
            return try accountStep(AccountStep(chrome: PageChrome(context: context)), context: context)
        }
        router.post("/onboarding/guest") { request, context in
            _ = try await WebForm.read(request, context: context)
            let signedIn = try await accounts.startGuest(kind: .web)
            return signedInRedirect(signedIn, to: "/onboarding/profile")
        }
        router.post("/onboarding/account") { request, context in
            let form = try await WebForm.read(request, context: context)
            do {
                let signedIn = try await accounts.register(email: form.text("email"), password: form["password"] ?? "", kind: .web)
                return signedInRedirect(signedIn, to: "/onboarding/profile")
            } catch let error as APIError where error.status.code < 500 {
                var step = AccountStep(chrome: PageChrome(context: context), email: form.text("email"))
                step.emailError = error.fields["email"]
                step.passwordError = error.fields["password"]
                if step.emailError == nil && step.passwordError == nil { step.formError = error.message }
                return try accountStep(step, context: context, status: .unprocessableContent)
            }
        }
    }

    /// The account step, with a fresh pre-session CSRF cookie whose value the forms echo back.
    func accountStep(_ values: AccountStep, context: AppRequestContext, status: HTTPResponse.Status = .ok) throws -> Response {
        var values = values
        let token = SessionToken.generate()
        values.chrome = PageChrome(context: context, preSessionToken: token)
        var response = try WebTemplates.page("onboarding-account", values, status: status)
        response.setCookie(WebSession.preSessionCookie(token, secure: configuration.secureCookies))
        return response
    }

    /// 303 to the next page with the session cookie set; the pre-session CSRF cookie has done its job.
    func signedInRedirect(_ signedIn: AccountService.SignedIn, to location: String) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        response.setCookie(WebSession.sessionCookie(signedIn.token, secure: configuration.secureCookies))
        response.setCookie(Cookie(name: WebSession.preSessionCookie, value: "", maxAge: 0, path: "/", secure: configuration.secureCookies, httpOnly: true, sameSite: .strict))
        return response
    }
}
