import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore

/// Issue 21 item 8: after an account is erased the SQLite files hold nothing of the person. Before, the erased
/// rows' text stayed readable in the file's free pages and in the WAL (`strings wdiet.sqlite-wal` showed it).
/// `secure_delete` zeroes deleted content in the pages; a TRUNCATE checkpoint after the erasure empties the WAL.
@Suite struct ErasureTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// The erased person's distinctive text: an email, a meal name, a journal note and a recording's bytes.
    static let traces = ["erase-me-4711@example.org", "Quokka-Zanzibar pie", "Slept under the Okavango moon", "AUDIO-Vltava-9931"]
    /// Another person's, which must stay (so the search is shown to find what is there).
    static let kept = "Bob's Tarragon Borscht"

    @Test func anErasedAccountLeavesNoTextInTheDatabaseFilesOrTheirWAL() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-erasure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("erasure.sqlite").path
        let database = try AppDatabase.open(path: path)

        let accounts = SQLiteAccountStore(database: database)
        let meals = SQLiteMealStore(database: database)
        let media = SQLiteMediaStore(database: database)
        let ana = try await accounts.createAccount(
            id: UUID(), email: Self.traces[0], displayName: "Ana", passwordHash: "$2b$12$not-a-real-hash").id
        let bob = try await accounts.createAccount(
            id: UUID(), email: "bob@example.org", displayName: "Bob", passwordHash: "$2b$12$not-a-real-hash").id
        let loggedAt = Date(timeIntervalSince1970: 1_790_000_000)
        _ = try await meals.saveMeal(Meal(name: Self.traces[1], kcal: 512, loggedAt: loggedAt), userId: ana, timeZone: Self.berlin)
        _ = try await meals.saveMeal(Meal(name: Self.kept, kcal: 230, loggedAt: loggedAt), userId: bob, timeZone: Self.berlin)
        _ = try await SQLiteSyncStore(database: database).push([
            SyncChange(idempotencyKey: "note-1", entity: .row, op: .upsert, id: UUID(), collection: "diary",
                       data: .object(["note": .string(Self.traces[2])])),
        ], userId: ana)
        _ = try await media.saveMedia(NewMedia(
            id: UUID(), kind: .audio, contentType: "audio/webm", data: Data(String(repeating: Self.traces[3], count: 40).utf8),
            thumbnail: nil, width: nil, height: nil, uploadDigest: String(repeating: "a", count: 64)
        ), userId: ana)

        // Everything of Ana's copied into the files (as the checkpointer does within a second), so that the files
        // themselves, not only the WAL, held her text before the erasure.
        #expect(await database.scrubWriteAheadLog())
        let mediaPath = MediaDatabase.mediaPath(besideMain: path)
        _ = try await MediaDatabase.open(besideMain: path).writer.writeWithoutTransaction { db in
            try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let before = try Self.files(path, mediaPath)
        for trace in Self.traces {
            #expect(before.contains { Self.contains($0.bytes, trace) }, "written first: \(trace)")
        }

        #expect(try await SQLiteUserDataStore(database: database).deleteAccount(userId: ana, loginThrottleKeys: []))
        #expect(try await media.deleteAllMedia(userId: ana) == 1)

        let after = try Self.files(path, mediaPath)
        for (name, bytes) in after {
            for trace in Self.traces {
                #expect(!Self.contains(bytes, trace), "\(trace) still readable in \(name) (\(bytes.count) bytes)")
            }
        }
        #expect(after.contains { Self.contains($0.bytes, Self.kept) }, "the other account's meal stays")
        // The WAL was emptied by the erasure (a TRUNCATE checkpoint), not merely left to be reused.
        #expect(after.first { $0.name.hasSuffix("erasure.sqlite-wal") }?.bytes.count ?? 0 == 0)
    }

    /// Every file SQLite keeps for the main and the media database (the files, their WALs and shared memory).
    static func files(_ main: String, _ media: String) throws -> [(name: String, bytes: Data)] {
        try [main, main + "-wal", main + "-shm", media, media + "-wal", media + "-shm"]
            .filter { FileManager.default.fileExists(atPath: $0) }
            .map { ($0, try Data(contentsOf: URL(fileURLWithPath: $0))) }
    }

    static func contains(_ bytes: Data, _ text: String) -> Bool {
        bytes.range(of: Data(text.utf8)) != nil
    }
}
