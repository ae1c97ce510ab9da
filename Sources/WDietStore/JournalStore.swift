import Foundation
import WDietCore

/// A journal entry as the server holds it: the entry, its server version (the `baseVersion` of the next edit) and,
/// for a tombstone, when it was deleted (its last values kept, so "Undo" can bring it back).
public struct StoredJournalEntry: Hashable, Sendable, Identifiable {
    public var entry: JournalEntry
    public var version: Int64
    public var deletedAt: Date?

    public init(entry: JournalEntry, version: Int64, deletedAt: Date? = nil) {
        self.entry = entry
        self.version = version
        self.deletedAt = deletedAt
    }

    public var id: UUID { entry.id }
    public var isDeleted: Bool { deletedAt != nil }
}

/// A save, delete or restore that lost to another change (sync's "cloud wins", docs/sync.md): `server` is the
/// server's copy now (a tombstone when another device deleted it), nil when the entry does not exist.
public struct JournalConflict: Error, Hashable, Sendable, CustomStringConvertible {
    public var server: StoredJournalEntry?
    public var message: String

    public init(server: StoredJournalEntry?, message: String) {
        self.server = server
        self.message = message
    }

    public var description: String { message }
}

/// The Journal's entries (seed 002, docs/journal.md) of one user, on any backend. Entries are generic sync rows of
/// the collection `journal` (docs/sync.md): every write here is a synced change (a new version, a tombstone for a
/// delete), so a client pulls what the web app wrote and the other way round. Reads come from the backend's
/// journal table (real columns and indexes, kept in step with the rows by the database).
///
/// Errors: an entry that breaks its rules throws `JournalEntry.Invalid` (member → message); a stale `baseVersion`
/// as `JournalConflict`; an id of another user's row as `StoreError.conflict`; an unknown user as
/// `StoreError.notFound`.
public protocol JournalStore: Sendable {
    /// Creates or updates `entry` as a synced change. `baseVersion` is the version the edit started from (nil for a
    /// create, or to overwrite whatever is there); a stale one throws `JournalConflict` with the server's copy.
    /// `today` (the user's local day) bounds the entry's date to `today` + 1.
    @discardableResult
    func save(_ entry: JournalEntry, baseVersion: Int64?, userId: UUID, today: LocalDate) async throws -> StoredJournalEntry

    /// One entry of the user by id, tombstone or not; nil when the user has none with this id.
    func entry(userId: UUID, id: UUID) async throws -> StoredJournalEntry?

    /// The live entries dated `from` through `through` (local days), ordered by date, time, then `createdAt`, id.
    func entries(userId: UUID, from: LocalDate, through: LocalDate) async throws -> [StoredJournalEntry]

    /// Every live entry of the user (for insights, the weekly summary, milestones), ordered as `entries`.
    func allEntries(userId: UUID) async throws -> [JournalEntry]

    /// The all-time facts insights' records need (entries per day, the distinct descriptions), read without the
    /// entries themselves (`JournalInsights`' `history`).
    func history(userId: UUID) async throws -> JournalHistory

    /// How many live entries the user has (milestones).
    func count(userId: UUID) async throws -> Int

    /// Deletes an entry: a tombstone with a new version (sync needs it), its values kept for `restore`. Returns the
    /// tombstone; nil when the user has no live entry with this id. A stale `baseVersion` throws `JournalConflict`.
    @discardableResult
    func delete(userId: UUID, id: UUID, baseVersion: Int64?) async throws -> StoredJournalEntry?

    /// Brings a deleted entry back ("Undo") as it was, with a new version. A live entry is returned as it is;
    /// an unknown id throws `StoreError.notFound`.
    @discardableResult
    func restore(userId: UUID, id: UUID) async throws -> StoredJournalEntry

    /// Live entries whose description or raw input contains every word of `query` (case-insensitive, in any order),
    /// newest first (date, time, `createdAt` descending), at most `limit`. An empty query finds nothing.
    func search(userId: UUID, query: String, limit: Int) async throws -> [StoredJournalEntry]

    /// The number of live entries on each day from `from` through `through`; days without entries are absent.
    func dayCounts(userId: UUID, from: LocalDate, through: LocalDate) async throws -> [LocalDate: Int]

    /// Adds WDietCore's deterministic sample data (`JournalSampleData`: the 120 days before `today`, every raw input
    /// `[SAMPLE]`-marked) as synced changes; returns how many entries were added (none twice: its ids are fixed).
    @discardableResult
    func addSampleData(userId: UUID, today: LocalDate, now: Date) async throws -> Int

    /// Deletes (tombstones) every live sample entry of the user (`JournalEntry.isSample`) and nothing else; returns
    /// how many.
    @discardableResult
    func removeSampleData(userId: UUID) async throws -> Int

    /// Whether the user has any live sample entry (`JournalEntry.isSample`: the raw input starts with `[SAMPLE]`,
    /// letter case as written), read without the entries themselves (the Journal's settings page asks on every view).
    func hasSampleData(userId: UUID) async throws -> Bool
}

extension JournalStore {
    /// A period's insights (the Insights page and `GET /api/v1/journal/insights`), read as little as the period
    /// allows: the entries of the period's days (at least the 14 of the week-over-week trend, and days after today
    /// as a device a time zone ahead writes them), those of the heatmap's month (this month by default), and the
    /// all-time `history` for the records. All time reads every entry. Every card asked for the period, the trend,
    /// the month's heatmap and the records is what `JournalInsights(entries: allEntries, today:)` would give.
    public func insights(
        userId: UUID, today: LocalDate, period: JournalPeriod, heatmapMonth: (year: Int, month: Int)? = nil
    ) async throws -> JournalInsights {
        guard let days = period.days else {
            return JournalInsights(entries: try await allEntries(userId: userId), today: today)
        }
        async let history = history(userId: userId)
        let from = today.adding(days: -(max(days, 14) - 1))
        // An entry is dated at most a day after its writer's today; a year covers any clock skew between devices.
        var entries = try await self.entries(userId: userId, from: from, through: today.adding(days: 366)).map(\.entry)
        let month = heatmapMonth ?? (today.year, today.month)
        let (nextYear, nextMonth) = month.month == 12 ? (month.year + 1, 1) : (month.year, month.month + 1)
        if let first = LocalDate(year: month.year, month: month.month, day: 1), first < from,
           let next = LocalDate(year: nextYear, month: nextMonth, day: 1) {
            let last = min(next.adding(days: -1), from.adding(days: -1))
            entries += try await self.entries(userId: userId, from: first, through: last).map(\.entry)
        }
        return JournalInsights(entries: entries, history: try await history, today: today)
    }
}
