import Foundation
import WDietCore
import WDietStore

/// The Journal's per-user settings kept as generic sync rows (docs/sync.md), one row per user and collection, so a
/// native client reads and writes them through sync like the web app: `journal_milestones` (which milestones were
/// celebrated, and the count they were last checked at) and `journal_reminders` (the reminder choices). A row's id
/// is made from the user's id, so every device writes the same row instead of one each.
enum JournalSettingsRow {
    static func id(userId: UUID, collection: String) -> UUID {
        // The user's id with its bytes mixed by a fixed pattern per collection: the same id on every device, a
        // different one per collection, never another user's (the mix is one-to-one).
        var bytes = withUnsafeBytes(of: userId.uuid) { Array($0) }
        let salt = Array(collection.utf8)
        for index in bytes.indices { bytes[index] ^= salt[index % salt.count] &+ UInt8(index) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    static func read<T: Decodable>(_ type: T.Type, collection: String, userId: UUID, services: AppServices) async throws -> (T, Int64)? {
        let id = id(userId: userId, collection: collection)
        guard let item = try await services.sync.row(userId: userId, collection: collection, id: id), item.deletedAt == nil,
              let data = item.data, let value = try? SyncRules.decodeRow(T.self, data) else { return nil }
        return (value, item.version)
    }

    /// Writes the row as a synced change; a change from another device in between wins ("cloud wins") and the
    /// caller's value is dropped (nil).
    @discardableResult
    static func write(_ value: some Encodable, collection: String, baseVersion: Int64?, userId: UUID, services: AppServices) async throws -> Int64? {
        let change = SyncChange(
            idempotencyKey: UUID().uuidString, entity: .row, op: .upsert, id: id(userId: userId, collection: collection),
            collection: collection, baseVersion: baseVersion, data: try SyncRules.rowData(value))
        let result = try await services.sync.push([change], userId: userId)
        guard let first = result.first, first.status == .applied else { return nil }
        return first.version
    }
}

/// 002's milestones (10, 25, 50, 100, 250 entries), each celebrated once per person, whatever device saw it first.
struct JournalMilestoneState: Codable, Hashable, Sendable {
    static let collection = "journal_milestones"

    var celebrated: [Int]
    /// The number of entries when milestones were last checked.
    var lastCount: Int

    /// The milestone to celebrate now, if any, recorded as celebrated in the same step (so a reload, another tab or
    /// another device does not show it again). The first check ever marks those already passed and shows none
    /// (002: a journal that already has 30 entries is not greeted with "10 entries!").
    static func check(userId: UUID, services: AppServices) async throws -> Int? {
        let count = try await services.journal.count(userId: userId)
        guard let found = try await JournalSettingsRow.read(Self.self, collection: collection, userId: userId, services: services) else {
            let first = JournalMilestoneState(celebrated: JournalMilestones.alreadyPassed(count: count), lastCount: count)
            try await JournalSettingsRow.write(first, collection: collection, baseVersion: nil, userId: userId, services: services)
            return nil
        }
        let (state, version) = found
        let milestone = JournalMilestones.celebration(from: state.lastCount, to: count, celebrated: Set(state.celebrated))
        guard milestone != nil || state.lastCount != count else { return nil }
        var next = state
        next.lastCount = count
        if let milestone { next.celebrated = Array(Set(state.celebrated + [milestone])).sorted() }
        guard try await JournalSettingsRow.write(next, collection: collection, baseVersion: version, userId: userId, services: services) != nil else {
            return nil
        }
        return milestone
    }
}

/// The milestone overlay (002's MilestoneOverlayView): confetti, the count and "Awesome!".
struct JournalMilestoneOverlay: Sendable {
    var milestone: Int
    var title: String
    var message: String
    var dismiss: String

    init?(_ milestone: Int?) {
        guard let milestone else { return nil }
        self.milestone = milestone
        title = JournalMilestones.title(milestone)
        message = Strings.current("journal.milestoneMessage")
        dismiss = Strings.current("journal.milestoneDismiss")
    }
}

/// The Journal's reminders (002's NotificationService): a daily reminder at a chosen time, the Sunday 19:00 weekly
/// recap and the 20:00 streak-at-risk nudge. Stored now (synced); delivered by the reminders work to come.
struct JournalReminderSettings: Codable, Hashable, Sendable {
    static let collection = "journal_reminders"
    static let standard = JournalReminderSettings(daily: false, dailyTime: "20:00", weeklyRecap: true, streakRisk: true)

    var daily: Bool
    /// "HH:mm", the user's local time.
    var dailyTime: String
    var weeklyRecap: Bool
    var streakRisk: Bool

    static func load(userId: UUID, services: AppServices) async throws -> (JournalReminderSettings, Int64?) {
        if let found = try await JournalSettingsRow.read(Self.self, collection: collection, userId: userId, services: services) {
            return (found.0, found.1)
        }
        return (standard, nil)
    }

    /// Checks the time ("HH:mm", 00:00–23:59) and saves; throws `InvalidInput` for a bad time.
    static func save(_ value: JournalReminderSettings, userId: UUID, services: AppServices) async throws -> JournalReminderSettings {
        guard let time = JournalTime(value.dailyTime) else {
            throw InvalidInput(["dailyTime": Strings.current("journalViews.reminderTimeInvalid")])
        }
        var saved = value
        saved.dailyTime = time.description
        let (_, version) = try await load(userId: userId, services: services)
        try await JournalSettingsRow.write(saved, collection: collection, baseVersion: version, userId: userId, services: services)
        return saved
    }
}
