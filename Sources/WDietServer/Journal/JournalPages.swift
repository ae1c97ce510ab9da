import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The Journal tab's day view and entry form (issue 18, seed 002): `/journal?date=` shows a day's entries as
/// 002's cards; `/journal/new` and `/journal/{id}/edit` write one. Every action is a plain form too (text entries,
/// edit, duplicate, delete and undo, a card's category), so the Journal works without script; `journal-day.js`
/// and `journal-entry.js` add the rest (no reload for delete, undo and category; photos, voice).
struct JournalPages: Sendable {
    let services: AppServices

    var logging: JournalLogging { JournalLogging(services: services) }

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/journal", use: day)
        group.get("/journal/new", use: newForm)
        group.post("/journal/new", use: add)
        group.get("/journal/{id}/edit", use: editForm)
        group.post("/journal/{id}/edit", use: saveEdit)
        group.post("/journal/{id}/delete", use: delete)
        group.post("/journal/{id}/restore", use: restore)
        group.post("/journal/{id}/duplicate", use: duplicate)
        group.post("/journal/{id}/category", use: changeCategory)
    }

    func chrome(_ context: WebUserContext) -> PageChrome { PageChrome(context: context, tab: .journal) }

    /// A day (`?date=`, a year back through today, else the 400 page of `PageDay`), with the notice of what was just
    /// added (002's "First entry today! 🎉" / "Meal #N today!"), changed or deleted; `?highlight=` marks one card.
    @Sendable func day(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let zone = stored.profile.timeZone
        let clock = logging.now(in: zone)
        let shown = try PageDay.from(request, today: clock.today)
        let entries = try await logging.entries(userId: context.userId, from: shown.date, through: shown.date)
        let query = request.uri.queryParameters
        let highlight = query.get("highlight").flatMap(WireFormat.uuid)
        var page = JournalDayPage(chrome: chrome(context), day: shown, entries: entries, hour: clock.time.hour, highlight: highlight)
        let strings = Strings.current
        if let added = query.get("added").flatMap(WireFormat.uuid),
           let entry = try await services.journal.entry(userId: context.userId, id: added), entry.deletedAt == nil {
            if entry.entry.date == clock.today {
                var count = entries.count
                if !shown.isToday {
                    count = try await logging.entries(userId: context.userId, from: clock.today, through: clock.today).count
                }
                page.notice = JournalMilestones.todayToast(count: count)
            } else {
                page.notice = strings("journalday.savedOn", ["day": strings.date(entry.entry.date, .long)])
            }
            // Where entries are added is where a milestone is reached (the calendar and Insights check too).
            page.milestone = JournalMilestoneOverlay(try await JournalMilestoneState.check(userId: context.userId, services: services))
        } else if query.get("updated") != nil {
            page.notice = strings("journalday.updated")
        } else if let deleted = query.get("deleted").flatMap(WireFormat.uuid) {
            page.notice = strings("journalday.deleted")
            page.deletedId = deleted.apiText
        }
        return try WebTemplates.page("journal-day", page)
    }

    @Sendable func newForm(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let clock = logging.now(in: stored.profile.timeZone)
        let shown = try PageDay.from(request, today: clock.today)
        return try WebTemplates.page("journal-entry", JournalEntryPage(chrome: chrome(context), day: shown, now: clock.time))
    }

    /// The form's save (text without script; a photo or voice entry with the media ids `journal-entry.js` uploaded):
    /// the API's rules, then the entry's day with its toast.
    @Sendable func add(_ request: Request, context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let clock = logging.now(in: stored.profile.timeZone)
        let shown = try PageDay.from(request, today: clock.today)
        var body = JournalBody(form: form)
        // The day is the page's (a year back through today), whatever the form says.
        body.date = .value(shown.date.iso)
        do {
            let saved = try await logging.add(body, userId: context.userId, profile: stored.profile, logger: context.logger)
            throw WebRedirect(location: "/journal?added=\(saved.id.apiText)" + dayMember(saved.entry.date, today: clock.today))
        } catch let invalid as InvalidInput {
            var page = JournalEntryPage(chrome: chrome(context), day: shown, now: clock.time)
            page.apply(form: form, errors: invalid.fields)
            return try WebTemplates.page("journal-entry", page, status: .unprocessableContent)
        }
    }

    @Sendable func editForm(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let entry = try await ownEntry(context)
        let today = logging.now(in: stored.profile.timeZone).today
        return try WebTemplates.page("journal-entry", JournalEntryPage(chrome: chrome(context), stored: entry, today: today))
    }

    /// An edit keeps the entry's day; its words, time and category change (marked "· edited").
    @Sendable func saveEdit(_ request: Request, context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let existing = try await ownEntry(context)
        let today = logging.now(in: stored.profile.timeZone).today
        var body = JournalBody(form: form)
        body.date = .absent
        body.inputType = .absent
        do {
            let changed = try await logging.change(existing, with: body, userId: context.userId, profile: stored.profile, logger: context.logger)
            throw WebRedirect(location: "/journal?updated=\(changed.id.apiText)" + dayMember(changed.entry.date, today: today) + "#entry-\(changed.id.apiText)")
        } catch let invalid as InvalidInput {
            var page = JournalEntryPage(chrome: chrome(context), stored: existing, today: today)
            page.apply(form: form, errors: invalid.fields)
            return try WebTemplates.page("journal-entry", page, status: .unprocessableContent)
        }
    }

    @Sendable func delete(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let entry = try await ownEntry(context)
        try await logging.delete(userId: context.userId, id: entry.id)
        let today = logging.now(in: stored.profile.timeZone).today
        throw WebRedirect(location: "/journal?deleted=\(entry.id.apiText)" + dayMember(entry.entry.date, today: today))
    }

    @Sendable func restore(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        guard let id = context.parameters.get("id").flatMap(WireFormat.uuid) else { throw JournalLogging.notFound }
        let restored = try await logging.restore(userId: context.userId, id: id)
        let today = logging.now(in: stored.profile.timeZone).today
        throw WebRedirect(location: "/journal" + dayQuery(restored.entry.date, today: today) + "#entry-\(id.apiText)")
    }

    /// "I ate it today" / "I ate again": a copy on today, now; today's page with its toast.
    @Sendable func duplicate(_ request: Request, context: WebUserContext) async throws -> Response {
        _ = try context.form()
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let entry = try await ownEntry(context)
        let copy = try await logging.duplicate(entry, id: nil, userId: context.userId, profile: stored.profile, logger: context.logger)
        throw WebRedirect(location: "/journal?added=\(copy.id.apiText)#entry-\(copy.id.apiText)")
    }

    /// The card's category menu without script: its form posts the choice (`none` removes it).
    @Sendable func changeCategory(_ request: Request, context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let entry = try await ownEntry(context)
        var body = JournalBody()
        body.category = .value(form.text("category").isEmpty ? "none" : form.text("category"))
        let today = logging.now(in: stored.profile.timeZone).today
        do {
            _ = try await logging.change(entry, with: body, userId: context.userId, profile: stored.profile, logger: context.logger)
        } catch let invalid as InvalidInput {
            throw APIError.badRequest(invalid.message)
        }
        throw WebRedirect(location: "/journal" + dayQuery(entry.entry.date, today: today) + "#entry-\(entry.id.apiText)")
    }

    /// `?date=…` of a day other than today, else nothing.
    func dayQuery(_ date: LocalDate, today: LocalDate) -> String { date == today ? "" : "?date=\(date.iso)" }
    func dayMember(_ date: LocalDate, today: LocalDate) -> String { date == today ? "" : "&date=\(date.iso)" }

    /// The signed-in user's live entry named in the path; anyone else's (or a deleted one) is "not found".
    func ownEntry(_ context: WebUserContext) async throws -> StoredJournalEntry {
        guard let id = context.parameters.get("id").flatMap(WireFormat.uuid) else { throw JournalLogging.notFound }
        return try await logging.entry(userId: context.userId, id: id)
    }
}
