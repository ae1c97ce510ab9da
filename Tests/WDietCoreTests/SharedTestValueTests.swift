import Foundation
import Testing
import WDietTestSupport

@Suite("A shared test value is made once, off the cooperative threads")
struct SharedTestValueTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var threads: [String] = []
        func record() -> Int {
            lock.withLock {
                count += 1
                threads.append(Self.currentThreadName())
                return count
            }
        }
        var made: (count: Int, threadNames: [String]) { lock.withLock { (count, threads) } }

        /// The kernel's name of the running thread (Linux), which `SharedTestValue` sets on its thread.
        static func currentThreadName() -> String {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .newlines)
        }
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
        #expect(counter.made.threadNames == ["wdiet-shared"])
    }

    @Test("an error making it reaches every caller")
    func errorReachesEveryone() async {
        let shared = SharedTestValue<Int> { throw Refused() }
        for _ in 0..<2 {
            await #expect(throws: Refused.self) { try await shared.value }
        }
    }
}
