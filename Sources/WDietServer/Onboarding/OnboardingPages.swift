import Foundation
import Hummingbird
import Logging
import WDietCore

/// The web app's onboarding (account step, then the profile steps of 000 Step 12), sign in and sign out.
///
/// The account, sign-in and sign-out pages are plain forms that work without script. The profile steps are one page
/// that a small script walks through step by step (`assets/js/onboarding.js`); the last step saves the profile with
/// `PUT /api/v1/profile`, so the rules and the messages are the API's.
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

    struct LoginPage {
        var chrome: PageChrome
        var email: String = ""
        var emailError: String?
        var passwordError: String?
        var formError: String?
    }

    /// One option of a `<select>` or a choice, with whether it starts selected.
    struct Option {
        var value: String
        var label: String
        var selected: Bool = false
    }

    struct ProfileSteps {
        var chrome: PageChrome
        /// The latest date of birth the date field accepts (today, in the user's browser the script refines it).
        var today: String
        var weightWholes: [Option]
        var weightDecimals: [Option]
        /// The eating moments the timeline offers: every half hour of the default window.
        var momentSlots: [Option]
        var windowStartStep: Int
        var windowStepCount: Int
        /// "2 of 8": where the steps start (the account was step 1); the script counts on from there.
        var stepCount: String
        /// The picker's starting weight as its caption shows it: "80.0 kg" / "80,0 kg".
        var weightValue: String
        /// The default window, "12pm - 6pm" / "12:00–18:00 Uhr", and as the slider speaks it.
        var windowRange: String
        var windowRangeSpoken: String
        /// The 24-hour track's labels: midnight, 6, noon, 18, midnight.
        var ticks: [String]
    }

    /// The account step, sign-in and sign-out are open to anyone; the profile steps need a user.
    func register(open router: RouterGroup<AppRequestContext>, signedIn: RouterGroup<WebUserContext>) {
        router.get("/onboarding") { _, context in
            if context.userId != nil { throw WebRedirect(location: "/") }
            return try preSessionPage("onboarding-account", AccountStep(chrome: PageChrome(context: context)), context: context)
        }
        router.post("/onboarding/guest") { request, context in
            _ = try context.form()
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            let signedIn = try await accounts.startGuest(kind: .web, clientAddress: address)
            recordAccountStep(userId: signedIn.user.id, method: "guest", logger: context.logger)
            return signedInRedirect(signedIn, to: "/onboarding/profile")
        }
        router.post("/onboarding/account") { request, context in
            let form = try context.form()
            do {
                let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
                let signedIn = try await accounts.register(email: form.text("email"), password: form["password"] ?? "", kind: .web, clientAddress: address)
                recordAccountStep(userId: signedIn.user.id, method: "email", logger: context.logger)
                return signedInRedirect(signedIn, to: "/onboarding/profile")
            } catch {
                guard let refused = RefusedAccountForm(error) else { throw error }
                var step = AccountStep(chrome: PageChrome(context: context), email: form.text("email"))
                step.emailError = refused.fields["email"]
                step.passwordError = refused.fields["password"]
                step.formError = refused.formMessage(besides: "email", "password")
                return try preSessionPage("onboarding-account", step, context: context, status: .unprocessableContent)
            }
        }
        signedIn.get("/onboarding/profile") { _, context in
            // The steps are for a first profile; later changes belong to Settings.
            if try await services.profiles.profile(userId: context.userId) != nil { throw WebRedirect(location: "/dashboard") }
            return try WebTemplates.page("onboarding-profile", profileSteps(context: context))
        }

        router.get("/login") { _, context in
            if context.userId != nil { throw WebRedirect(location: "/") }
            return try preSessionPage("login", LoginPage(chrome: PageChrome(context: context)), context: context)
        }
        router.post("/login") { request, context in
            let form = try context.form()
            do {
                let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
                let signedIn = try await accounts.login(
                    email: form.text("email"), password: form["password"] ?? "", kind: .web, clientAddress: address,
                    deviceToken: request.cookies[TrustedDevice.cookieName]?.value)
                // "/" sends the user on to the dashboard, or to the profile steps if onboarding was left half-way.
                return signedInRedirect(signedIn, to: "/")
            } catch {
                guard let refused = RefusedAccountForm(error) else { throw error }
                var page = LoginPage(chrome: PageChrome(context: context), email: form.text("email"))
                page.emailError = refused.fields["email"]
                page.passwordError = refused.fields["password"]
                page.formError = refused.formMessage(besides: "email", "password")
                // 422, 401 for a wrong pair, 429 while throttled: then it says how long to wait, in the message and
                // for clients in Retry-After.
                return refused.withRetryAfter(try preSessionPage("login", page, context: context, status: refused.status))
            }
        }
        router.post("/logout") { request, context in
            _ = try context.form()
            if let token = context.webSessionToken { try await accounts.logout(token: token) }
            var response = Response(status: .seeOther, headers: [.location: "/", .cacheControl: "no-store"])
            response.setCookie(WebSession.clearedSessionCookie(secure: configuration.secureCookies))
            return response
        }
    }

    /// The account is onboarding's first step (000 Step 12) and the first moment there is a user to count:
    /// `onboarding_started` and the step's `onboarding_step_completed` are recorded here, once per user. The
    /// profile steps that follow are one page walked by script, so the browser reports those
    /// (`onboarding.js`, step_number 2 onwards); `ProfileAPI` records `onboarding_finished` with the first profile.
    func recordAccountStep(userId: UUID, method: String, logger: Logger) {
        let events = services.events
        events.recordOnce(.onboardingStarted, ["method": method], userId: userId,
                      id: EventRecorder.stableId(userId: userId, key: "onboarding-started"), logger: logger)
        events.recordOnce(.onboardingStepCompleted, ["step": "account", "step_number": "1", "method": method], userId: userId,
                      id: EventRecorder.stableId(userId: userId, key: "onboarding-step:account"), logger: logger)
    }

    func profileSteps(context: WebUserContext) -> ProfileSteps {
        let strings = Strings.current
        let today = LocalDate(services.now(), in: .gmt)
        // The picker starts at Other's 80 kg until a gender is chosen; the script moves it to 90/70/80.
        let start = Sex.other.defaultPickerWeightKg
        let window = EatingWindow.default
        let range = ["start": Self.clock(window.startMinute, strings), "end": Self.clock(window.endMinute, strings)]
        return ProfileSteps(
            chrome: PageChrome(context: context),
            today: today.iso,
            weightWholes: (30...200).map { Option(value: "\($0)", label: strings.number($0), selected: Double($0) == start.rounded(.down)) },
            // ".5" / ",5": the tenths column writes the language's decimal separator.
            weightDecimals: (0...9).map { Option(value: "\($0)", label: String(strings.number(Double($0) / 10, fractionDigits: 1).dropFirst()), selected: $0 == 0) },
            momentSlots: stride(from: 0, through: EatingWindow.durationMinutes, by: EatingWindow.stepMinutes).map { offset in
                Option(value: "\(offset)", label: Self.clock(window.startMinute + offset, strings))
            },
            windowStartStep: window.startMinute / EatingWindow.stepMinutes,
            windowStepCount: 1_440 / EatingWindow.stepMinutes - 1,
            stepCount: strings("onboarding.stepCount", ["step": strings.number(2), "total": strings.number(8)]),
            weightValue: strings("onboarding.weightValue", ["weight": strings.number(start, fractionDigits: 1), "unit": strings("onboarding.unitKg")]),
            windowRange: strings("onboarding.windowRange", range),
            windowRangeSpoken: strings("onboarding.windowRangeSpoken", range),
            ticks: stride(from: 0, through: 1_440, by: 360).map { Self.clock($0, strings) }
        )
    }

    /// A time of day as the language writes it: 000's "12pm" / "12:30pm" in English, "12:00" / "12:30" in German
    /// (where the day's end is "24:00"). `onboarding.js` writes the same.
    static func clock(_ minuteOfDay: Int, _ strings: Strings) -> String {
        switch strings.language {
        case .english: EatingWindow.twelveHour(minuteOfDay)
        case .german: EatingWindow.clock(minuteOfDay == 1_440 ? 1_440 : ((minuteOfDay % 1_440) + 1_440) % 1_440)
        }
    }

    /// A page with a form posted before there is a session: it sets a fresh pre-session CSRF cookie whose value
    /// the forms echo back.
    func preSessionPage<Values>(_ template: String, _ values: Values, context: AppRequestContext, status: HTTPResponse.Status = .ok) throws -> Response
    where Values: PreSessionValues {
        var values = values
        let token = SessionToken.generate()
        values.chrome = PageChrome(context: context, preSessionToken: token)
        var response = try WebTemplates.page(template, values, status: status)
        response.setCookie(WebSession.preSessionCookie(token, secure: configuration.secureCookies))
        return response
    }

    /// 303 to the next page with the session cookie set; the pre-session CSRF cookie has done its job.
    func signedInRedirect(_ signedIn: AccountService.SignedIn, to location: String) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        response.setCookie(WebSession.sessionCookie(signedIn.token, secure: configuration.secureCookies))
        response.setCookie(Cookie(name: WebSession.preSessionCookie, value: "", maxAge: 0, path: "/", secure: configuration.secureCookies, httpOnly: true, sameSite: .strict))
        if let deviceToken = signedIn.deviceToken {
            // This browser is a trusted device of the account from now on (`TrustedDevice`); it outlives sign-outs.
            response.setCookie(Cookie(
                name: TrustedDevice.cookieName, value: deviceToken, maxAge: TrustedDevice.cookieLifetime, path: "/",
                secure: configuration.secureCookies, httpOnly: true, sameSite: .lax))
        }
        return response
    }
}

/// Page values whose CSRF token comes from the pre-session cookie.
protocol PreSessionValues {
    var chrome: PageChrome { get set }
}

extension OnboardingPages.AccountStep: PreSessionValues {}
extension OnboardingPages.LoginPage: PreSessionValues {}
