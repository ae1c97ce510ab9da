import Foundation
import Testing
import WDietPostgres

@Suite("Bounded waits for work that may never end")
struct BoundedWaitTests {
    // No bound on how soon: in the full suite a new task has waited ~48 s for one of the two cooperative threads.
    @Test("work that ends within the limit is reported as finished")
    func finishedWork() async {
        let finished = await BoundedWait.finishes(within: .seconds(600)) { await Task.yield() }
        #expect(finished)
    }

    @Test("work still going at the limit: false once the limit has passed, and the work is left to end on its own",
          .timeLimit(.minutes(10)))
    func overrunningWork() async {
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let (ended, ender) = AsyncStream<Void>.makeStream()
        let began = ContinuousClock.now
        let finished = await BoundedWait.finishes(within: .milliseconds(200)) {
            for await _ in release {}
            ender.yield()
            ender.finish()
        }
        #expect(!finished)
        #expect(ContinuousClock.now - began >= .milliseconds(200))

        // Not cancelled: once let go, the work runs to its end.
        releaser.finish()
        var endings = 0
        for await _ in ended { endings += 1 }
        #expect(endings == 1)
    }
}
