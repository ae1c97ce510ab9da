import Foundation

/// The user's own data as a whole (GDPR Art. 15/20 and 17): everything the user entered, read in one snapshot;
/// a previously exported copy written into another account; and the account erased.
///
/// What each implementation must do (the SQLite and PostgreSQL stores alike):
/// - `exportUserData` reads in one read transaction (a consistent snapshot): the account, its live profile, live
///   meals and weights (tombstones left out) oldest first, analytics events oldest first, dismissed tips, live
///   generic sync rows oldest first (by creation, then collection and id), and the
///   Apple/Google identities as issuer + email + linkedAt. Never a password hash, a session, a token, an identity's
///   subject or a throttle count. `.notFound` for an unknown user.
/// - `importUserData` writes all of it or nothing, in one transaction. The target must exist (`.notFound`) and be
///   empty: a profile, meal, weight, dismissed tip or generic row (tombstones count) is `.conflict`; the user's own analytics
///   events do not count (a new account records some by itself). Each row keeps its id when no row of its table
///   has that id (anyone's, tombstones included), and gets a fresh random id otherwise (a generic row keeps its
///   collection and id: they are unique per user), so a copy imported beside
///   the account it came from never touches that account. Values, `loggedAt`, `localDate`, `createdAt` and
///   `updatedAt` are kept as exported; `version` is drawn anew from the store's change counter (it is the store's
///   sync cursor, not the user's data). An analytics event whose id the user already has is skipped (events are
///   recorded once). The account itself (email, name) and identities are not imported: identities must be linked
///   again with the provider's proof. Values the coach's stores would refuse are `.invalid`.
/// - `deleteAccount` removes, in one transaction, every row of the user in every table — users, profiles, meals,
///   weights, loggedDays, analytics_events, dismissedTips, credentials, sessions, identities, rateLimitEvents — and
///   the `loginFailures` rows whose keys the caller passes (the server keys them by a SHA-256 of the email, which
///   the store does not compute). Hard deletes, not tombstones. Returns false for an unknown user (nothing done).
public protocol UserDataStore: Sendable {
    func exportUserData(userId: UUID) async throws -> UserDataExport

    @discardableResult
    func importUserData(_ data: UserDataExport, into userId: UUID) async throws -> UserDataImportSummary

    @discardableResult
    func deleteAccount(userId: UUID, loginThrottleKeys: [String]) async throws -> Bool
}

/// What an import wrote.
public struct UserDataImportSummary: Hashable, Sendable, Codable {
    public var profiles: Int
    public var meals: Int
    public var weights: Int
    public var analyticsEvents: Int
    public var dismissedTips: Int
    /// Generic sync rows (the journal's).
    public var rows: Int
    /// Rows that got a fresh id because theirs was taken (by the exporting account, typically).
    public var newIds: Int

    public init(
        profiles: Int = 0, meals: Int = 0, weights: Int = 0, analyticsEvents: Int = 0, dismissedTips: Int = 0, rows: Int = 0, newIds: Int = 0
    ) {
        self.profiles = profiles
        self.meals = meals
        self.weights = weights
        self.analyticsEvents = analyticsEvents
        self.dismissedTips = dismissedTips
        self.rows = rows
        self.newIds = newIds
    }

    /// Adds a part's counts (an import written in chunks).
    public mutating func add(_ part: UserDataImportSummary) {
        profiles += part.profiles
        meals += part.meals
        weights += part.weights
        analyticsEvents += part.analyticsEvents
        dismissedTips += part.dismissedTips
        rows += part.rows
        newIds += part.newIds
    }
}
