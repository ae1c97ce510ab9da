import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `GET|PUT /api/v1/profile` and `GET /api/v1/profile/preview`: the signed-in user's one profile.
struct ProfileAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("profile", use: show)
        group.put("profile", use: save)
        group.get("profile/preview", use: ProfilePreviewAPI(services: services).preview)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> ProfileJSON {
        guard let stored = try await services.profiles.profile(userId: context.userId) else { throw APIError.profileMissing }
        let now = services.now()
        let current = try await CurrentWeight.read(services, userId: context.userId, today: LocalDate(now, in: stored.profile.timeZone))
        return ProfileJSON(stored, now: now, current: current)
    }

    /// Creates (201) or replaces (200) the profile. A change of the targets waits for the user's next midnight and
    /// the answer says so; a stale `baseVersion` is 409 with the client's and the server's copies; the 11th change
    /// within an hour is 429 with `Retry-After`.
    ///
    /// Over an existing profile `weightKg` is the current weight (PRODUCT.md "current weight"): when it differs from
    /// the latest logged weight, the save logs it as a weight for now (`WeightLogging`, so it is in the weight log and
    /// moves the targets from tomorrow), and the profile's own weight (the onboarding one) stays as it was.
    @Sendable func save(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(ProfileBody.self, from: request, context: context)
        let existing = try await services.profiles.profile(userId: context.userId)
        let now = services.now()
        let typed = try body.profile(over: existing?.profile, now: now)
        var profile = typed
        var newWeightKg: Double?
        if let existing {
            let current = try await CurrentWeight.read(services, userId: context.userId, today: LocalDate(now, in: existing.profile.timeZone))
            if body.weightKg.isPresent, current.isChange(typed.weightKg, of: existing) { newWeightKg = typed.weightKg }
            profile.weightKg = existing.profile.weightKg
        }

        let saved: StoredProfile
        do {
            saved = try await ProfileSaving(services: services).save(
                profile, over: existing?.profile, userId: context.userId, expectedVersion: body.baseVersion.value, now: now)
        } catch let limit as ProfileSaving.LimitReached {
            return try ProfileRateLimitJSON(retryAt: limit.retryAt, now: now).response()
        } catch {
            guard case StoreError.conflict(let message) = error,
                  let current = try await services.profiles.profile(userId: context.userId)
            else { throw error }
            let weight = try await CurrentWeight.read(services, userId: context.userId, today: LocalDate(now, in: current.profile.timeZone))
            return try ProfileConflictJSON(
                message: message, local: typed, baseVersion: body.baseVersion.value, server: current, userId: context.userId, now: now,
                currentWeight: weight
            ).response()
        }
        if let newWeightKg {
            _ = try await WeightLogging(services: services).log(
                WeightEntry(id: TimeOrderedUUID.make(), kg: newWeightKg, loggedAt: now), userId: context.userId,
                profile: saved.profile, logger: context.logger)
        }
        // The first profile saved from the web app's onboarding ends it (004 Story 5.2): recorded here, never by the
        // page. An app signed in with a bearer token walks its own onboarding and posts the event itself.
        if existing == nil, SessionToken.presented(in: request)?.kind == .web {
            services.events.recordOnce(.onboardingFinished, ["goal": profile.goal.rawValue], userId: context.userId,
                                   id: EventRecorder.stableId(userId: context.userId, key: "onboarding-finished"), logger: context.logger)
        }
        let current = try await CurrentWeight.read(services, userId: context.userId, today: LocalDate(now, in: saved.profile.timeZone))
        return try ProfileJSON(saved, now: now, current: current)
            .response(from: request, context: context)
            .withStatus(existing == nil ? .created : .ok)
    }
}

/// 429 for the 11th profile change within an hour (001 §12.7): the error shape plus `retryAfterSeconds`, and the
/// same number in `Retry-After`, counted to the second from the instant the oldest counted change leaves the hour.
struct ProfileRateLimitJSON: Encodable {
    struct Detail: Encodable {
        var code = "rate_limited"
        var message = Strings.current("profile.rateLimited")
        var retryAfterSeconds: Int
    }
    var error: Detail

    init(retryAt: Date, now: Date) {
        // Rounded up: a client that waits exactly this long is let in.
        error = Detail(retryAfterSeconds: max(1, Int((retryAt.timeIntervalSince(now) - 1e-6).rounded(.up))))
    }

    func response() throws -> Response {
        let data = try APICoding.encoder.encode(self)
        return Response(
            status: .tooManyRequests,
            headers: [.contentType: "application/json; charset=utf-8", .retryAfter: String(error.retryAfterSeconds)],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

extension Response {
    func withStatus(_ status: HTTPResponse.Status) -> Response {
        var response = self
        response.status = status
        return response
    }
}
