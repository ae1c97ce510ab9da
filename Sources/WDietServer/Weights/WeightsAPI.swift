import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `POST|GET /api/v1/weights`, `PUT|DELETE /api/v1/weights/{id}`, `POST /api/v1/weights/{id}/restore`: the
/// signed-in user's weight log.
struct WeightsAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("weights", use: create)
        group.get("weights", use: list)
        group.put("weights/{id}", use: update)
        group.delete("weights/{id}", use: delete)
        group.post("weights/{id}/restore", use: restore)
    }

    /// 201 with the entry, the day's current value and the new average. A client-generated `id` the user already
    /// has returns that entry unchanged.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(WeightBody.self, from: request, context: context)
        let id = try APIInput.uuid(body.id)
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileRequired }
        let saved = try await WeightLogging(services: services).log(body, id: id, userId: context.userId, profile: profile, logger: context.logger)
        let answer = try await savedJSON(saved, userId: context.userId, unit: profile.weightUnit)
        var response = try answer.response(from: request, context: context).withStatus(.created)
        response.headers[.location] = "/api/v1/weights/\(answer.entry.id)"
        return response
    }

    /// The entry and its day as it now stands (a second entry that day replaces the first).
    func savedJSON(_ saved: StoredWeight, userId: UUID, unit: WeightUnit) async throws -> WeightSavedJSON {
        let recent = try await services.weights.recentDailyWeights(userId: userId, through: saved.localDate, days: DashboardInputs.weightDays)
        let day = WeightHistory.days(recent.map { ($0.localDate, $0.entry.kg) }).last.flatMap { $0.date == saved.localDate ? $0 : nil }
        return WeightSavedJSON(entry: WeightEntryJSON(saved), day: day.map(WeightDayJSON.init), unit: unit)
    }

    /// 200 with the entry as changed: `{kg}` or `{lb}`, `loggedAt?` (kept when left out). Unknown, deleted or
    /// someone else's: 404.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> WeightSavedJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        let body = try await APIInput.decode(WeightBody.self, from: request, context: context)
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileRequired }
        let logging = WeightLogging(services: services)
        let changed = try await logging.change(try await logging.entry(userId: context.userId, id: id), with: body, profile: profile)
        return try await savedJSON(changed, userId: context.userId, unit: profile.weightUnit)
    }

    /// "Undo" after a delete: 200 with the entry back under a new version (a live one as it is); unknown: 404.
    @Sendable func restore(_ request: Request, context: AuthenticatedContext) async throws -> WeightSavedJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileRequired }
        let restored = try await WeightLogging(services: services).restore(userId: context.userId, id: id)
        return try await savedJSON(restored, userId: context.userId, unit: profile.weightUnit)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> WeightHistoryJSON {
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileMissing }
        async let history = services.weights.weightHistory(userId: context.userId)
        async let daily = services.weights.dailyWeights(userId: context.userId)
        let entries = try await history
        let days = WeightHistory.days(try await daily.map { ($0.localDate, $0.entry.kg) })
        // The history is in logging order: its last entry is the latest weight.
        return WeightHistoryJSON(
            unit: profile.weightUnit, entries: entries.map(WeightEntryJSON.init), days: days.map(WeightDayJSON.init),
            pickerDefaultKg: WeightHistory.pickerDefault(latestKg: entries.last?.entry.kg, sex: profile.sex)
        )
    }

    /// 204; unknown or someone else's: 404.
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await WeightLogging(services: services).delete(userId: context.userId, id: try APIInput.uuid(path: "id", of: context))
        return Response(status: .noContent)
    }
}
