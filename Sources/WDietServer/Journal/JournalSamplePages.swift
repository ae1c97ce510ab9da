import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// 002's sample data in the web app (issue 18 item 3; docs/journal.md "Sample data"): the Journal's settings page
/// (`/journal/reminders`) offers "Add sample entries" — the 120 days before today from `JournalSampleData`, every
/// raw input `[SAMPLE]`-marked — while the journal has none, and "Remove sample entries" while it has some, which
/// takes out those and nothing the person wrote. Plain forms (they work without script), saved as synced changes.
extension JournalViewsPages {
    func addSampleData(_ context: WebUserContext) async throws -> Response {
        _ = try context.form()
        let today = try await today(context)
        let added = try await services.journal.addSampleData(userId: context.userId, today: today, now: services.now())
        try await JournalMilestoneState.moveOn(userId: context.userId, services: services)
        return Response(status: .seeOther, headers: [.location: "/journal/reminders?sample=added&count=\(added)#sample", .cacheControl: "no-store"])
    }

    func removeSampleData(_ context: WebUserContext) async throws -> Response {
        _ = try context.form()
        _ = try await today(context)
        let removed = try await services.journal.removeSampleData(userId: context.userId)
        try await JournalMilestoneState.moveOn(userId: context.userId, services: services)
        return Response(status: .seeOther, headers: [.location: "/journal/reminders?sample=removed&count=\(removed)#sample", .cacheControl: "no-store"])
    }
}

/// What the sample entries' card shows.
struct JournalSampleCard: Sendable {
    var hasSamples = false
    var notice: String?

    static func load(_ request: Request?, userId: UUID, services: AppServices) async throws -> JournalSampleCard {
        let hasSamples = try await services.journal.hasSampleData(userId: userId)
        var notice: String?
        if let request, let count = request.uri.queryParameters.get("count").flatMap({ Int($0) }), count >= 0 {
            switch request.uri.queryParameters.get("sample") {
            case "added": notice = Strings.current("journalViews.sampleAdded", count: count)
            case "removed": notice = Strings.current("journalViews.sampleRemoved", count: count)
            default: break
            }
        }
        return JournalSampleCard(hasSamples: hasSamples, notice: notice)
    }
}

extension JournalMilestoneState {
    /// After sample entries came or went: the count moves on without a celebration (sample entries are nobody's
    /// milestone; without this, adding them would greet the person with "10 entries!"). After a removal the
    /// person's own entries cross 10, 25 … from where they are; milestones already celebrated stay celebrated.
    static func moveOn(userId: UUID, services: AppServices) async throws {
        let count = try await services.journal.count(userId: userId)
        if let (state, version) = try await JournalSettingsRow.read(Self.self, collection: collection, userId: userId, services: services) {
            guard state.lastCount != count else { return }
            var next = state
            next.lastCount = count
            try await JournalSettingsRow.write(next, collection: collection, baseVersion: version, userId: userId, services: services)
        } else {
            try await JournalSettingsRow.write(JournalMilestoneState(celebrated: [], lastCount: count), collection: collection,
                                               baseVersion: nil, userId: userId, services: services)
        }
    }
}
