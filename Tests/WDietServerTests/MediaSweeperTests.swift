import Foundation
import Logging
import Testing
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// The media part of `wdiet serve`'s sweep (docs/media.md "Media no row names"): batches follow until one is not
/// full, at the sweeper's clock; without a media store it does nothing.
@Suite struct MediaSweeperTests {
    @Test(arguments: StoreBackend.allCases)
    func sweepsEveryBatchOfMediaAtItsClock(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let media: any MediaStore & UnreferencedMediaStore = switch stores.database {
            case .sqlite(let database): SQLiteMediaStore(database: database, now: stores.clock.closure)
            case .postgres(let client): PostgresMediaStore(client: client, now: stores.clock.closure)
            }
            // 501 uploads no row names (more than one batch of 500) at 2026-03-01T09:00Z, one a second later.
            for _ in 0..<501 { _ = try await media.saveMedia(MediaStoreConformanceTestsPhoto.make(), userId: user) }
            stores.clock.advance(seconds: 1)
            let younger = MediaStoreConformanceTestsPhoto.make()
            _ = try await media.saveMedia(younger, userId: user)
            stores.clock.advance(seconds: 7 * 86_400 - 1)  // exactly 7 days after the first 501
            let logger = Logger(label: "test")
            let rowStore: any DeletedRowStore = switch stores.database {
            case .sqlite(let database): SQLiteDeletedRowStore(database: database, now: stores.clock.closure)
            case .postgres(let client): PostgresDeletedRowStore(client: client, now: stores.clock.closure)
            }
            let sweeper = DeletedRowSweeper(store: rowStore, now: stores.clock.closure, logger: logger, media: media)

            let done = await sweeper.sweepMedia()
            #expect(done.examined == 502 && done.deleted == 501 && done.marked == 0 && done.unmarked == 0)
            #expect(try await media.allMedia(userId: user).map(\.id) == [younger.id])
            let again = await sweeper.sweepMedia()
            #expect(again.examined == 1 && again.deleted == 0)
            // Without a media store the sweep has nothing to do.
            let none = await DeletedRowSweeper(store: rowStore, now: stores.clock.closure, logger: logger).sweepMedia()
            #expect(none == MediaSweepBatch())
        }
    }
}

/// A small photo to store directly (the store takes what the upload made).
enum MediaStoreConformanceTestsPhoto {
    static func make() -> NewMedia {
        NewMedia(
            id: UUID(), kind: .photo, contentType: "image/jpeg", data: Data([0xFF, 0xD8, 1, 2, 3]), thumbnail: Data([0xFF, 0xD8, 9]),
            width: 16, height: 12, uploadDigest: "aa")
    }
}
