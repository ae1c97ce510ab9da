import Foundation
import WDietCore
import WDietStore

/// What a saved row may refer to in the media store: a journal entry's `mediaIds` and a challenge photo's `mediaId`
/// must be items the user has uploaded (docs/media.md, "References"). Every entry point asks here before it saves —
/// the journal's API and web forms (`JournalLogging`), the Challenge's check-in (`ChallengeService`, its own check),
/// and the sync push (`SyncAPI`, a refused change the client parks) — so that no row names a photo that is not there
/// or is another user's (which the media store would never serve, and which would leak nothing, but would show as a
/// broken picture on every device).
///
/// Only ids a change adds are checked: a row that already named an item the user has since deleted may still be
/// edited (its words, its time) without putting the photo back first.
struct MediaReferences: Sendable {
    let media: any MediaStore

    /// The ids of `ids` that are not the user's media items, in their order, once each.
    func missing(_ ids: some Sequence<UUID>, userId: UUID) async throws -> [UUID] {
        var seen = Set<UUID>()
        var missing: [UUID] = []
        for id in ids where seen.insert(id).inserted {
            if try await media.media(id: id, userId: userId) == nil { missing.append(id) }
        }
        return missing
    }

    /// Deletes those of `ids` (a deleted challenge's photos) that no live journal entry of the user names; answers
    /// how many went. A photo used twice stays with the row that still shows it.
    @discardableResult
    func deleteUnreferenced(_ ids: [UUID], userId: UUID, journal: any JournalStore) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let named = Set(try await journal.allEntries(userId: userId).flatMap(\.mediaIds))
        var deleted = 0
        for id in Set(ids) where !named.contains(id) {
            if try await media.deleteMedia(id: id, userId: userId) { deleted += 1 }
        }
        return deleted
    }

    /// The message for a row that names media the user does not have.
    static func message(_ missing: [UUID]) -> String {
        Strings.current("media.referenceMissing", ["id": missing.first.map { $0.uuidString.lowercased() } ?? ""])
    }

    /// The media ids a sync change's row adds, by its collection: a journal entry's `mediaIds`, a challenge photo's
    /// `mediaId`; nil when the change is not an upsert of such a row (or is unreadable: `SyncRules` refuses that).
    static func referenced(by change: SyncChange) -> [UUID]? {
        guard change.entity == .row, change.op == .upsert, let data = change.data else { return nil }
        switch change.collection {
        case JournalEntry.collection?:
            return (try? SyncRules.decodeRow(JournalEntry.self, data))?.mediaIds
        case ChallengePhoto.collection?:
            return (try? SyncRules.decodeRow(ChallengePhoto.self, data)).map { [$0.mediaId] }
        default:
            return nil
        }
    }
}
