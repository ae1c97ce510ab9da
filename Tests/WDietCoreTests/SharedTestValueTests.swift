import Foundation
import Testing
import WDietTestSupport

@Suite("A shared test value is made once, off the cooperative threads")
struct SharedTestValueTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var insideATask: [Bool] = []
        func record() -> Int {
            lock.withLock {
                count += 1
                insideATask.append(withUnsafeCurrentTask { $0 != nil })
                return count
            }
        }
        var made: (count: Int, insideATask: [Bool]) { lock.withLock { (count, insideATask) } }
    }

    struct Refused: Error, Equatable {}

    @Test("ten tests awaiting at once get the one value, made once on its own thread")
    func madeOnce() async throws {
        let counter = Counter()
        let shared = SharedTestValue<Int> { counter.record() * 42 }
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await shared.value } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 42, count: 10))
        #expect(counter.made.count == 1)
        // Not on one of Swift's cooperative threads: no task is running where it is made.
        #expect(counter.made.insideATask == [false])
    }

    @Test("an error making it reaches every caller")
    func errorReachesEveryone() async {
        let shared = SharedTestValue<Int> { throw Refused() }
        for _ in 0..<2 {
            await #expect(throws: Refused.self) { try await shared.value }
        }
    }
}
