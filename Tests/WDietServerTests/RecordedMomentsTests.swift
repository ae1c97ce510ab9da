import Foundation
import Logging
import Testing
@testable import WDietServer
import WDietStore

/// An analytics store that counts the events it is handed, failing the first `failures` of them.
private final class CountingAnalytics: AnalyticsStore, @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [UUID] = []
    private var failures: Int

    init(failures: Int = 0) { self.failures = failures }

    var recordedIds: [UUID] { lock.withLock { calls } }

    func recordEvent(_ event: AnalyticsEvent, userId: UUID) async throws {
        try lock.withLock {
            calls.append(event.id)
            if failures > 0 {
                failures -= 1
                throw StoreError.unavailable("down")
            }
        }
    }

    func events(userId: UUID) async throws -> [AnalyticsEvent] { [] }

    /// The recorder stores off the caller's path: wait (briefly) until `count` calls arrived.
    func waitForCalls(_ count: Int) async throws -> [UUID] {
        for _ in 0..<100 where recordedIds.count < count {
            try await Task.sleep(for: .milliseconds(10))
        }
        return recordedIds
    }
}

@Suite("Once-only analytics moments: the process remembers what it stored")
struct RecordedMomentsTests {
    let logger = Logger(label: "test")
    let userId = UUID(uuidString: "6A0C2B61-5E2B-4E47-9E3C-1D2A3B4C5D6E")!

    @Test("a phase switch seen on three dashboard loads reaches the store once; another day's id is stored too")
    func onceAcrossLoads() async throws {
        let store = CountingAnalytics()
        let recorder = EventRecorder(analytics: store, now: Date.init, recorded: RecordedMoments())
        let switchDay = EventRecorder.stableId(userId: userId, key: "phase-switch:2026-03-01")
        recorder.recordOnce(.cyclePhaseSwitched, userId: userId, id: switchDay, logger: logger)
        #expect(try await store.waitForCalls(1) == [switchDay])
        recorder.recordOnce(.cyclePhaseSwitched, userId: userId, id: switchDay, logger: logger)
        recorder.recordOnce(.cyclePhaseSwitched, userId: userId, id: switchDay, logger: logger)
        let nextSwitch = EventRecorder.stableId(userId: userId, key: "phase-switch:2026-03-15")
        recorder.recordOnce(.cyclePhaseSwitched, userId: userId, id: nextSwitch, logger: logger)
        #expect(try await store.waitForCalls(2) == [switchDay, nextSwitch])
        try await Task.sleep(for: .milliseconds(100))
        #expect(store.recordedIds.count == 2)
    }

    @Test("an event the store could not take is not remembered: the next load tries again")
    func failureIsRetried() async throws {
        let store = CountingAnalytics(failures: 1)
        let recorder = EventRecorder(analytics: store, now: Date.init, recorded: RecordedMoments())
        let id = EventRecorder.stableId(userId: userId, key: "streak-milestone:2026-03-01:7")
        recorder.recordOnce(.streakMilestoneReached, ["days": "7"], userId: userId, id: id, logger: logger)
        #expect(try await store.waitForCalls(1).count == 1)
        try await Task.sleep(for: .milliseconds(50))
        recorder.recordOnce(.streakMilestoneReached, ["days": "7"], userId: userId, id: id, logger: logger)
        #expect(try await store.waitForCalls(2) == [id, id])
    }

    @Test("events without a stable id are all stored, each with a new id")
    func plainEvents() async throws {
        let store = CountingAnalytics()
        let recorder = EventRecorder(analytics: store, now: Date.init, recorded: RecordedMoments())
        for _ in 0..<3 { recorder.record(.weightLogged, ["unit": "kg"], userId: userId, logger: logger) }
        #expect(Set(try await store.waitForCalls(3)).count == 3)
    }

    @Test("bounded: with 2 ids a generation, an id stays known for the next generation and is forgotten after")
    func bounded() {
        let ids = (0..<5).map { _ in UUID() }
        let memo = RecordedMoments(capacity: 2)
        memo.insert(ids[0]); memo.insert(ids[1]); memo.insert(ids[2]) // generation 2 starts with ids[2]
        #expect(memo.contains(ids[0]) && memo.contains(ids[1]) && memo.contains(ids[2]))
        memo.insert(ids[3]); memo.insert(ids[4]) // generation 3 starts with ids[4]; generation 1 is dropped
        #expect(!memo.contains(ids[0]) && !memo.contains(ids[1]))
        #expect(memo.contains(ids[2]) && memo.contains(ids[3]) && memo.contains(ids[4]))
    }
}
