import Foundation
import WDietCore
import WDietStore
import WDietSQLite
import Logging

/// Imports per account and per client address (issue 21 item 3): an import is the heaviest request there is (up to
/// 32 MB to read, a year's meals to write), and guests are cheap. Per account every attempt counts (`perUser` an
/// hour: an account imports once, so twenty is room for mistakes, while reading and parsing up to 32 MB a time is
/// bounded); per client address the imports that wrote
/// something (`perAddress` an hour: one refused before writing — not JSON, a bad member, an account with data —
/// gives the address's slot back). Counted in the store (`LoginThrottleStore.takeAttempt`: every process shares
/// the counts, on both backends) before the body is read; past a limit 429 `too_many_imports` with Retry-After
/// until its window ends. Loopback clients are not counted per address, as for sign-ups
/// (`AccountCreationLimit.isCounted`); per account they are.
struct ImportLimit: Sendable {
    static let window: TimeInterval = 60 * 60
    static let perUser = 20
    static let perAddress = 10

    let store: any LoginThrottleStore
    let now: @Sendable () -> Date

    static func limits(userId: UUID, clientAddress: String?) -> [LoginThrottleLimit] {
        var limits = [LoginThrottleLimit(key: LoginThrottle.hashed("import-user:" + userId.uuidString), limit: perUser)]
        if AccountCreationLimit.isCounted(clientAddress), let clientAddress {
            limits.append(LoginThrottleLimit(key: LoginThrottle.hashed("import-address:" + clientAddress), limit: perAddress))
        }
        return limits
    }

    /// Takes one import's slot under each key, or throws the 429. Answers the address's key (to give back when
    /// nothing was written), if it is counted.
    func take(userId: UUID, clientAddress: String?) async throws -> [String] {
        let limits = Self.limits(userId: userId, clientAddress: clientAddress)
        let at = now()
        if case .refused(let counts) = try await store.takeAttempt(limits, now: at, window: Self.window) {
            let seconds = max(1, LoginThrottle.secondsToWait(counts, window: Self.window, now: at))
            throw APIError(
                .tooManyRequests, code: "too_many_imports",
                message: Strings.current("export.tooManyImports", ["wait": LoginThrottle.waitText(seconds)]),
                headers: [.retryAfter: String(seconds)]
            )
        }
        return limits.dropFirst().map(\.key)
    }

    func giveBack(_ keys: [String]) async {
        try? await store.returnAttempt(keys: keys)
    }
}

/// At start on SQLite: an import a stopped process left half written is undone, so the account is as empty as
/// before it (the person imports again). PostgreSQL imports in one transaction and needs none.
func removeUnfinishedImports(_ database: AppDatabase, logger: Logger) async {
    do {
        let undone = try await SQLiteUserDataStore(database: database).removeUnfinishedImports()
        if undone > 0 { logger.notice("unfinished imports undone", metadata: ["accounts": "\(undone)"]) }
    } catch {
        logger.error("unfinished imports not undone", metadata: ["error": "\(String(reflecting: error))"])
    }
}
