import Foundation
import Hummingbird
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore

/// `/api/v1/challenge/app-lock…` (issue 20 item 4; the PIN page is `ChallengePages.lock`): the PIN (4–6 digits) is kept
/// only as a bcrypt hash on the server (`ChallengeAppLockStore`), never synced. Five wrong PINs in a row end the
/// user's sessions (a full sign-in again), and the count starts over.
struct ChallengeAppLockAPI: Sendable {
    let services: AppServices
    let accounts: AccountService

    static let maxWrongPins = 5

    var store: any ChallengeAppLockStore { Self.store(services) }

    static func store(_ services: AppServices) -> any ChallengeAppLockStore {
        if let postgres = services.postgres { return PostgresChallengeAppLockStore(client: postgres.client) }
        return SQLiteChallengeAppLockStore(database: services.database!)
    }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.put("challenge/app-lock", use: set)
        group.delete("challenge/app-lock", use: remove)
        group.post("challenge/app-lock/verify", use: verify)
    }

    static func pin(_ body: ChallengePinBody) throws -> String {
        guard let pin = body.pin.value, (4...6).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw InvalidInput(["pin": Strings.current("challenge.pinFormat")])
        }
        return pin
    }

    /// 204: the PIN is set (or replaced) and the wrong attempts cleared.
    @Sendable func set(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pin = try Self.pin(try await APIInput.decode(ChallengePinBody.self, from: request, context: context))
        try await store.setPin(userId: context.userId, pinHash: try await accounts.passwords.hash(pin), now: services.now())
        return Response(status: .noContent)
    }

    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await store.removePin(userId: context.userId) else { throw APIError.notFound(Strings.current("challenge.pinNotSet")) }
        return Response(status: .noContent)
    }

    /// What a PIN sent to the lock page or the API comes to.
    enum PinCheck: Equatable, Sendable {
        case right
        /// No PIN is set (removed on another device meanwhile): nothing to unlock.
        case notSet
        case wrong(attemptsLeft: Int)
        /// The fifth wrong PIN in a row: every session of the user is ended, the count starts over.
        case lockedOut
    }

    /// Checks `pin` (already in its format) against the user's hash and counts a wrong one; the API's verify and the
    /// lock page's form (`ChallengePages.unlock`, for a browser without script) both answer from it.
    func check(pin: String, userId: UUID) async throws -> PinCheck {
        guard let lock = try await store.appLock(userId: userId) else { return .notSet }
        if try await accounts.passwords.verify(pin, hash: lock.pinHash) {
            try await store.resetFailures(userId: userId)
            return .right
        }
        let wrong = try await store.recordFailure(userId: userId)
        if wrong >= Self.maxWrongPins {
            try await store.resetFailures(userId: userId)
            try await accounts.logoutEverywhere(userId: userId)
            return .lockedOut
        }
        return .wrong(attemptsLeft: Self.maxWrongPins - wrong)
    }

    /// 204 for the right PIN; 422 with the attempts left for a wrong one; the fifth wrong one in a row ends every
    /// session of the user: 401 `pin_locked_out`.
    @Sendable func verify(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pin = try Self.pin(try await APIInput.decode(ChallengePinBody.self, from: request, context: context))
        switch try await check(pin: pin, userId: context.userId) {
        case .right:
            return Response(status: .noContent)
        case .notSet:
            throw APIError.notFound(Strings.current("challenge.pinNotSet"))
        case .lockedOut:
            throw APIError(.unauthorized, code: "pin_locked_out", message: Strings.current("challenge.pinLockedOut"))
        case .wrong(let left):
            let message = Strings.current("challenge.pinWrong")
            throw APIError(.unprocessableContent, code: "pin_wrong", message: message,
                           fields: ["pin": message, "attemptsLeft": String(left)])
        }
    }
}
