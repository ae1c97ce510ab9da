import Foundation
import WDietCore

/// Everything a user entered, as `UserDataStore.exportUserData` reads it: the value behind the JSON and CSV exports
/// and what an import writes. Nothing in it lets anyone sign in (no password hash, session, token or provider
/// subject).
public struct UserDataExport: Hashable, Sendable {
    public var account: Account
    /// The live profile; nil before onboarding.
    public var profile: StoredProfile?
    /// Live rows (no tombstones), oldest `loggedAt` first.
    public var meals: [StoredMeal]
    public var weights: [StoredWeight]
    /// Oldest first.
    public var analyticsEvents: [AnalyticsEvent]
    public var dismissedTips: [DismissedTip]
    /// Live generic rows of sync (docs/sync.md: the journal's entries and what later modules keep there), by
    /// creation, oldest first.
    public var rows: [Row]

    public init(
        account: Account, profile: StoredProfile?, meals: [StoredMeal], weights: [StoredWeight],
        analyticsEvents: [AnalyticsEvent], dismissedTips: [DismissedTip], rows: [Row] = []
    ) {
        self.account = account
        self.profile = profile
        self.meals = meals
        self.weights = weights
        self.analyticsEvents = analyticsEvents
        self.dismissedTips = dismissedTips
        self.rows = rows
    }

    /// How many rows of the user's data the export holds (the account row not counted).
    public var recordCount: Int {
        (profile == nil ? 0 : 1) + meals.count + weights.count + analyticsEvents.count + dismissedTips.count + rows.count
    }

    /// A generic row: its collection and id (unique per user, so an import keeps them), the JSON object it holds.
    public struct Row: Hashable, Sendable {
        public var collection: String
        public var id: UUID
        public var data: SyncJSON
        public var version: Int64
        public var createdAt: Date
        public var updatedAt: Date

        public init(collection: String, id: UUID, data: SyncJSON, version: Int64, createdAt: Date, updatedAt: Date) {
            self.collection = collection
            self.id = id
            self.data = data
            self.version = version
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }
    }

    public struct Account: Hashable, Sendable {
        public var id: UUID
        /// nil for a guest (and for an Apple/Google account whose provider gave none).
        public var email: String?
        public var displayName: String
        public var createdAt: Date
        public var identities: [Identity]
        /// The account's settings (Settings → Language and Appearance); nil for Automatic and Auto.
        public var language: Language?
        public var appearance: Appearance?

        public init(
            id: UUID, email: String?, displayName: String, createdAt: Date, identities: [Identity],
            language: Language? = nil, appearance: Appearance? = nil
        ) {
            self.id = id
            self.email = email
            self.displayName = displayName
            self.createdAt = createdAt
            self.identities = identities
            self.language = language
            self.appearance = appearance
        }
    }

    /// A linked Apple or Google account: which provider and the address it gave, never the subject.
    public struct Identity: Hashable, Sendable {
        public var issuer: String
        public var email: String?
        public var linkedAt: Date

        public init(issuer: String, email: String?, linkedAt: Date) {
            self.issuer = issuer
            self.email = email
            self.linkedAt = linkedAt
        }
    }

    /// A coach tip the user dismissed. The id is kept as stored text, so a tip this version does not know survives
    /// an export and import unchanged.
    public struct DismissedTip: Hashable, Sendable {
        public var tipId: String
        public var dismissedAt: Date
        public var version: Int64

        public init(tipId: String, dismissedAt: Date, version: Int64) {
            self.tipId = tipId
            self.dismissedAt = dismissedAt
            self.version = version
        }
    }
}
