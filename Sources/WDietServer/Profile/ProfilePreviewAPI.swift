import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `GET /api/v1/profile/preview?weightKg=75&goal=maintain…`: what a proposed change would do to the targets, without
/// saving it. The query names the members of `PUT /profile` that change (the rest stay as saved; an empty value
/// clears `targetWeightKg` or `targetDate`; `dietaryPreferences` and `allergies` repeat). The answer compares the
/// targets of the day the change would take effect, before and after, so the difference is the change's alone and
/// not tomorrow's MATADOR switch; validation is the save's (422 with 001's messages).
struct ProfilePreviewAPI: Sendable {
    let services: AppServices

    static let numberMembers: Set<String> = ["heightCm", "weightKg", "targetWeightKg", "mealsPerDay"]
    static let listMembers: Set<String> = ["dietaryPreferences", "allergies"]
    static let clearableMembers: Set<String> = ["targetWeightKg", "targetDate"]

    @Sendable func preview(_ request: Request, context: AuthenticatedContext) async throws -> ProfilePreviewJSON {
        guard let stored = try await services.profiles.profile(userId: context.userId) else { throw APIError.profileMissing }
        let now = services.now()
        // The saved members under the query's, with the current weight (the latest logged) as `weightKg`.
        let current = try await CurrentWeight.read(services, userId: context.userId, today: LocalDate(now, in: stored.profile.timeZone))
        let body = try Self.body(from: request.uri.queryParameters, over: ProfileJSON(stored, now: now, current: current))
        let proposed = try body.profile(over: stored.profile, now: now)
        return ProfilePreviewJSON(stored: stored, proposed: proposed, current: current, now: now)
    }

    /// The saved profile's members with the query's on top, decoded as a `PUT` body would be.
    static func body(from query: Parameters, over saved: ProfileJSON) throws -> ProfileBody {
        let editable = Set(ProfileConflictJSON.editableMembers)
        var object = try savedMembers(saved)
        var unknown: [String: String] = [:]
        for name in Set(query.map { String($0.key) }) {
            guard editable.contains(name) else {
                unknown[name] = Strings.current("profile.previewUnknownParameter")
                continue
            }
            let values = query.getAll(name)
            if listMembers.contains(name) {
                object[name] = values.filter { !$0.isEmpty }
            } else if let value = values.last, value.isEmpty, clearableMembers.contains(name) {
                object[name] = NSNull()
            } else {
                // Numbers go as text: the body reads "82,5" as a person typed it.
                object[name] = values.last ?? ""
            }
        }
        // A proposed sex without a description previews as PUT saves it: the saved description stays only for Other.
        if query.has("sex"), !query.has("genderDescription") { object["genderDescription"] = nil }
        guard unknown.isEmpty else { throw APIError.badRequest(Strings.current("profile.previewUnknownParameters"), fields: unknown) }
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            return try APICoding.decoder.decode(ProfileBody.self, from: data)
        } catch let error as DecodingError {
            throw APIInput.badRequest(for: error)
        }
    }

    static func savedMembers(_ saved: ProfileJSON) throws -> [String: Any] {
        let data = try APICoding.encoder.encode(saved)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let editable = Set(ProfileConflictJSON.editableMembers)
        return object.filter { editable.contains($0.key) }
    }
}
