import Foundation
import WDietClient
import WDietCore
import WDietStore
import WDietTestSupport

/// Idempotency keys PREFIX-k1, PREFIX-k2, … so tests can say which key a change carries. Keys are per user on the
/// server, so every device needs its own prefix (real devices use UUIDs).
final class KeyCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    let prefix = UUID().uuidString.prefix(8).lowercased()

    func key(_ number: Int) -> String { "\(prefix)-k\(number)" }

    var make: @Sendable () -> String {
        { [self] in lock.withLock { next += 1; return key(next) } }
    }
}

enum ClientFixtures {
    static let morning = Fixtures.utc("2026-03-01T07:30:00Z")

    static func meal(_ name: String = "Porridge", kcal: Double = 320, at date: Date = morning, id: UUID = UUID()) -> Meal {
        Meal(id: id, name: name, kcal: kcal, protein: 11, carbs: 54, fat: 6, source: .manual, loggedAt: date)
    }

    /// A client on its own memory (or file) store, signed in nowhere, with the fixture profile saved.
    static func store(path: String? = nil, keys: KeyCounter = KeyCounter(), clock: TestClock? = nil, profile: Bool = true) throws -> ClientStore {
        let clock = clock ?? TestClock(Fixtures.utc("2026-03-01T09:00:00Z"))
        let store = try ClientStore(path: path, now: clock.closure, makeKey: keys.make)
        if profile { try store.saveProfile(Fixtures.profile()) }
        return store
    }

    /// An engine whose waits return at once, with a seeded random source.
    static func engine(
        _ store: ClientStore, _ transport: any SyncTransport, maxRetries: Int = 4, batch: Int = SyncLimits.maxChangesPerPush,
        sleeper: RecordingSleeper = RecordingSleeper(), seed: UInt64 = 1
    ) -> SyncEngine {
        SyncEngine(
            store: store, transport: transport,
            policy: .init(backoff: Backoff(base: 0.5, cap: 30), maxRetries: maxRetries, pushBatchSize: batch),
            random: SeededRandom(seed: seed), sleeper: sleeper)
    }

    static func temporaryPath(_ name: String = "client") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-\(name)-\(UUID().uuidString).sqlite").path
    }
}

extension SyncEngine.State {
    var isUpToDate: Bool {
        if case .upToDate = self { return true }
        return false
    }
}
