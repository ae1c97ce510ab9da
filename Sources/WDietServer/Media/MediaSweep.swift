import Foundation
import Logging
import WDietStore

extension DeletedRowSweeper {
    /// The media part of the sweep (docs/media.md "Media no row names"): every item examined in batches of
    /// `MediaRetention.batchSize`, those no row names marked, deleted `MediaRetention.grace` after; until a batch
    /// is not full (or one fails: logged, tried again at the next sweep). Answers the totals.
    @discardableResult
    func sweepMedia() async -> MediaSweepBatch {
        // Export zips whose download never started (ExportZipFile), a day after they were made: by the files'
        // own clock, not the sweep's (a test's clock may stand anywhere).
        ExportZipFile.removeStale(now: Date())
        let now = now()
        guard let media else { return MediaSweepBatch() }
        var done = MediaSweepBatch()
        do {
            while !Task.isCancelled {
                let batch = try await media.sweepUnreferencedMedia(after: done.last, now: now, limit: MediaRetention.batchSize)
                done.examined += batch.examined
                done.marked += batch.marked
                done.unmarked += batch.unmarked
                done.deleted += batch.deleted
                done.last = batch.last ?? done.last
                if batch.examined < MediaRetention.batchSize || batch.last == nil { break }
                await Task.yield()
            }
        } catch {
            logger.warning("Media no row names could not be swept; trying again at the next sweep", metadata: ["error": "\(String(reflecting: error))"])
        }
        if done.marked + done.unmarked + done.deleted > 0 {
            logger.info("Media no row names swept", metadata: [
                "examined": "\(done.examined)", "marked": "\(done.marked)", "unmarked": "\(done.unmarked)", "deleted": "\(done.deleted)",
            ])
        }
        return done
    }
}
