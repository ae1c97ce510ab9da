import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `/api/v1/journal/entries…`: the signed-in user's journal entries (issue 18), and no one else's. Another
/// user's id, a deleted entry or an unknown one is 404.
struct JournalAPI: Sendable {
    let services: AppServices

    /// The longest range one `GET` may ask for: a year and a day (a leap year's 366 days).
    static let maxRangeDays = 366

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("journal/entries", use: list)
        group.post("journal/entries", use: create)
        group.get("journal/entries/{id}", use: show)
        group.put("journal/entries/{id}", use: update)
        group.delete("journal/entries/{id}", use: delete)
        group.post("journal/entries/{id}/restore", use: restore)
        group.post("journal/entries/{id}/duplicate", use: duplicate)
    }

    var logging: JournalLogging { JournalLogging(services: services) }

    func profile(_ context: AuthenticatedContext) async throws -> Profile {
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else {
            throw APIError.profileRequired
        }
        return profile
    }

    /// `?from=&to=` (local days, both included; each defaults to the other, both to today), at most 366 days.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> JournalEntriesJSON {
        let from = try APIInput.date(query: "from", of: request)
        let to = try APIInput.date(query: "to", of: request)
        let profile = try await profile(context)
        let today = LocalDate(services.now(), in: profile.timeZone)
        let first = from ?? to ?? today, last = to ?? from ?? today
        guard first <= last else {
            throw APIError.badRequest(Strings.current("journalday.rangeInvalid"), fields: ["from": Strings.current("journalday.rangeInvalid")])
        }
        guard first.adding(days: Self.maxRangeDays - 1) >= last else {
            let message = Strings.current("journalday.rangeTooLong", count: Self.maxRangeDays)
            throw APIError.badRequest(message, fields: ["to": message])
        }
        let entries = try await logging.entries(userId: context.userId, from: first, through: last)
        return JournalEntriesJSON(from: first, to: last, entries: entries.map(JournalEntryJSON.init))
    }

    /// 201 with the entry (and today's count and toast when it is on today); `Location` names it.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(JournalBody.self, from: request, context: context)
        let profile = try await profile(context)
        let saved = try await logging.add(body, userId: context.userId, profile: profile, logger: context.logger)
        return try await added(saved, profile: profile, request: request, context: context)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> JournalEntryJSON {
        JournalEntryJSON(try await logging.entry(userId: context.userId, id: try APIInput.uuid(path: "id", of: context)))
    }

    /// A partial update: members left out stay as they are; `category: null` removes the category, `"auto"`
    /// detects it again. The entry is marked edited (`updatedAt`) when something changed.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> JournalEntryJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        let body = try await APIInput.decode(JournalBody.self, from: request, context: context)
        let existing = try await logging.entry(userId: context.userId, id: id)
        let profile = try await profile(context)
        return JournalEntryJSON(try await logging.change(existing, with: body, userId: context.userId, profile: profile, logger: context.logger))
    }

    /// 204; the entry becomes a tombstone that sync still hands out (`restore` brings it back).
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await logging.delete(userId: context.userId, id: try APIInput.uuid(path: "id", of: context))
        return Response(status: .noContent)
    }

    /// "Undo" after a delete: the entry is back as it was, with a new version.
    @Sendable func restore(_ request: Request, context: AuthenticatedContext) async throws -> JournalEntryJSON {
        JournalEntryJSON(try await logging.restore(userId: context.userId, id: try APIInput.uuid(path: "id", of: context)))
    }

    /// "I ate it today" / "I ate again": 201 with a copy on today at the time now. The body is optional; its `id`
    /// (client-made) makes a retry add nothing twice.
    @Sendable func duplicate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try APIInput.uuid(path: "id", of: context)
        let buffer = try await request.body.collect(upTo: APIInput.maxBodyBytes)
        var copyId: UUID?
        if buffer.readableBytes > 0 {
            try ControlCharacterInput.check(json: buffer)
            struct Body: Decodable { var id: JSONField<String> = .absent }
            let body: Body
            do {
                body = try APICoding.decoder.decode(Body.self, from: Data(buffer: buffer))
            } catch let error as DecodingError {
                throw APIInput.badRequest(for: error)
            }
            copyId = try APIInput.uuid(body.id)
        }
        let existing = try await logging.entry(userId: context.userId, id: id)
        let profile = try await profile(context)
        let copy = try await logging.duplicate(existing, id: copyId, userId: context.userId, profile: profile, logger: context.logger)
        return try await added(copy, profile: profile, request: request, context: context)
    }

    func added(_ saved: StoredJournalEntry, profile: Profile, request: Request, context: AuthenticatedContext) async throws -> Response {
        let today = LocalDate(services.now(), in: profile.timeZone)
        var json = JournalAddedJSON(entry: JournalEntryJSON(saved))
        if saved.entry.date == today {
            let count = try await services.journal.entries(userId: context.userId, from: today, through: today).count
            json.todayCount = count
            json.toast = JournalMilestones.todayToast(count: count)
        }
        var response = try json.response(from: request, context: context).withStatus(.created)
        response.headers[.location] = "/api/v1/journal/entries/\(saved.id.apiText)"
        return response
    }
}
