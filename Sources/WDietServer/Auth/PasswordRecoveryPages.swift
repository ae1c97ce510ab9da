import Foundation
import Hummingbird
import WDietCore

/// "Forgot password?" on the web (`PasswordRecovery`): `/forgot-password` asks for the email and answers the same
/// page whether or not it has an account; `/reset-password?token=…` (the emailed link) takes the new password, then
/// signs the browser in and makes it a trusted device. Plain forms, no script needed.
struct PasswordRecoveryPages: Sendable {
    let recovery: PasswordRecovery
    let onboarding: OnboardingPages
    let configuration: ServerConfiguration

    struct ForgotPage: PreSessionValues {
        var chrome: PageChrome
        var available: Bool
        var email: String = ""
        var emailError: String?
        var formError: String?
        /// Set once the request is taken: the same words for every email.
        var sentMessage: String?
    }

    struct ResetPage: PreSessionValues {
        var chrome: PageChrome
        var token: String
        var linkInvalid = false
        var passwordError: String?
        var formError: String?
    }

    func register(open router: RouterGroup<AppRequestContext>) {
        router.get("/forgot-password") { _, context in
            var page = ForgotPage(chrome: PageChrome(context: context), available: recovery.isAvailable)
            if !recovery.isAvailable { page.formError = AccountRefusal.recoveryUnavailable.message }
            return try onboarding.preSessionPage("forgot-password", page, context: context)
        }
        router.post("/forgot-password") { request, context in
            let form = try context.form()
            let email = form.text("email")
            var page = ForgotPage(chrome: PageChrome(context: context), available: recovery.isAvailable, email: email)
            do {
                let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
                try await recovery.requestReset(email: email, clientAddress: address, language: Strings.current.language, logger: context.logger)
                page.sentMessage = PasswordRecovery.sentMessage(email: email)
                return try onboarding.preSessionPage("forgot-password", page, context: context)
            } catch {
                guard let refused = RefusedAccountForm(error) else { throw error }
                page.emailError = refused.fields["email"]
                page.formError = refused.formMessage(besides: "email")
                return refused.withRetryAfter(try onboarding.preSessionPage("forgot-password", page, context: context, status: refused.status))
            }
        }
        router.get("/reset-password") { request, context in
            let token = request.uri.queryParameters.get("token") ?? ""
            var page = ResetPage(chrome: PageChrome(context: context), token: token)
            page.linkInvalid = try await !recovery.tokenIsValid(token)
            return try onboarding.preSessionPage(
                "reset-password", page, context: context, status: page.linkInvalid ? AccountRefusal.resetLinkInvalid.status : .ok)
        }
        router.post("/reset-password") { request, context in
            let form = try context.form()
            let token = form.text("token")
            do {
                let signedIn = try await recovery.reset(token: token, newPassword: form["newPassword"] ?? "", kind: .web)
                return onboarding.signedInRedirect(signedIn, to: "/")
            } catch {
                guard let refused = RefusedAccountForm(error) else { throw error }
                var page = ResetPage(chrome: PageChrome(context: context), token: token)
                page.linkInvalid = (error as? AccountRefusal) == .resetLinkInvalid
                page.passwordError = refused.fields["newPassword"]
                page.formError = page.linkInvalid ? nil : refused.formMessage(besides: "newPassword")
                return try onboarding.preSessionPage("reset-password", page, context: context, status: refused.status)
            }
        }
    }
}
