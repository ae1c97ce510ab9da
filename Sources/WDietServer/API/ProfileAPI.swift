import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `GET|PUT /api/v1/profile`: the signed-in user's one profile.
struct ProfileAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("profile", use: show)
        group.put("profile", use: save)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> ProfileJSON {
        guard let stored = try await services.profiles.profile(userId: context.userId) else { throw APIError.profileMissing }
        return ProfileJSON(stored, now: services.now())
    }

    /// Creates (201) or replaces (200) the profile. A change of the targets waits for the user's next midnight and
    /// the answer says so; a stale `baseVersion` is 409 with the server's copy.
    @Sendable func save(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(ProfileBody.self, from: request, context: context)
        let existing = try await services.profiles.profile(userId: context.userId)
        let profile = try body.profile(over: existing?.profile, now: services.now())
        let saved: StoredProfile
        do {
            saved = try await services.profiles.saveProfile(profile, userId: context.userId, expectedVersion: body.baseVersion.value)
        } catch StoreError.conflict(let message) {
            guard let current = try await services.profiles.profile(userId: context.userId) else {
                throw APIError(.conflict, code: "conflict", message: message)
            }
            return try ProfileConflictJSON(error: .init(message: message, current: ProfileJSON(current, now: services.now()))).response()
        }
        return try ProfileJSON(saved, now: services.now())
            .response(from: request, context: context)
            .withStatus(existing == nil ? .created : .ok)
    }
}

extension Response {
    func withStatus(_ status: HTTPResponse.Status) -> Response {
        var response = self
        response.status = status
        return response
    }
}
