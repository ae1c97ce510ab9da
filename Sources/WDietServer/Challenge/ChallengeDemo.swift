import Foundation
import Hummingbird
import Logging
import WDietCore
import WDietStore

/// "Seed Demo Data" and "Remove Demo Data" (003 Settings → Data; `ChallengeDemoData` makes the rows). Seeding
/// writes the demo's rows as synced changes (a few hundred, pushed in batches), so the person's devices get them
/// too; removing deletes the demo challenge with every row of it and touches nothing else. A person who runs a
/// challenge of their own is not given a demo on top (it would hide theirs or be hidden): they are told so.
extension ChallengeService {
    func seedDemo(userId: UUID, logger: Logger) async throws -> Int {
        let context = try await context(userId: userId)
        let demoId = ChallengeDemoData.challengeId(userId: userId)
        if let current = try await store.current(userId: userId), current.id != demoId {
            throw StoreError.conflict(Strings.current("challengeProgress.demoOwnChallenge"))
        }
        let rows = ChallengeDemoData.rows(userId: userId, today: context.today, now: services.now(),
                                          unit: context.profile?.weightUnit ?? .kg)
        // The demo's ids are derived, so after "Remove Demo Data" its rows' tombstones hold them: a create (no base
        // version) loses to a tombstone, and seeding again would bring nothing back. Each row is written from the
        // version the server has for its id (tombstone or live row), as an edit of it.
        let photoDays = ChallengeDemoData.photoDays(today: context.today)
        let photoWeeks = await ChallengeDemoPhotos.store(weeks: photoDays.map(\.week), userId: userId, services: services, logger: logger)
        let photos: [any ChallengeRowValue] = photoDays.filter { photoWeeks.contains($0.week) }.map {
            ChallengeDemoData.photo(userId: userId, week: $0.week, takenOn: $0.takenOn, now: services.now())
        }
        let values = rows.all + photos
        var stored: [UUID: Int64] = [:]
        for collection in Set(values.map { type(of: $0).collection }) {
            for text in try await services.sync.rowTexts(userId: userId, collection: collection, includingDeleted: true) {
                stored[text.id] = text.version
            }
        }
        var changes: [SyncChange] = []
        for value in values {
            try value.validate()
            changes.append(SyncChange(idempotencyKey: "challenge-demo-" + UUID().uuidString, entity: .row, op: .upsert, id: value.id,
                                      collection: type(of: value).collection, baseVersion: stored[value.id], data: try SyncRules.rowData(value)))
        }
        var applied = 0, start = 0
        while start < changes.count {
            let end = min(start + SyncLimits.maxChangesPerPush, changes.count)
            applied += try await services.sync.push(Array(changes[start..<end]), userId: userId).filter { $0.status == .applied }.count
            start = end
        }
        return applied
    }

    /// Deletes the demo challenge and its photos; false when there is none.
    func removeDemo(userId: UUID) async throws -> Bool {
        let demoId = ChallengeDemoData.challengeId(userId: userId)
        guard let row = try await store.row(Challenge.self, userId: userId, id: demoId), !row.isDeleted else { return false }
        _ = try await store.deleteChallenge(id: demoId, userId: userId)
        try await ChallengeDemoPhotos.delete(userId: userId, services: services)
        return true
    }

    func hasDemo(userId: UUID) async throws -> Bool {
        guard let row = try await store.row(Challenge.self, userId: userId, id: ChallengeDemoData.challengeId(userId: userId)) else { return false }
        return !row.isDeleted
    }
}

extension ChallengeProgressPages {
    func registerDemo(on group: RouterGroup<WebUserContext>) {
        group.post("/challenge/demo") { _, context in
            _ = try await service.seedDemo(userId: context.userId, logger: context.logger)
            return Response(status: .seeOther, headers: [.location: "/challenge?saved=demo", .cacheControl: "no-store"])
        }
        group.post("/challenge/demo/remove") { _, context in
            _ = try await service.removeDemo(userId: context.userId)
            return Response(status: .seeOther, headers: [.location: "/challenge/settings?saved=demoRemoved", .cacheControl: "no-store"])
        }
    }
}
