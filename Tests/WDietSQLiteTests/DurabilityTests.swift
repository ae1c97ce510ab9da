import Foundation
import GRDB
import Testing
import WDietSQLite

/// Issue 21 item 12: "nothing a user saved is ever lost" holds through a power cut only if every acknowledged commit
/// is on disk. In WAL mode that is `synchronous = FULL` (2): the WAL is synced at every commit. NORMAL (1) syncs it
/// only at checkpoints, so a power cut could lose the last acknowledged saves.
@Suite struct DurabilityTests {
    @Test func theMainFileAndTheMediaFileSyncEveryCommit() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("durable.sqlite").path

        let database = try AppDatabase.open(path: path)
        // The writer's connection is the one whose commits must be durable; readers are asked too (same setting).
        let writing = try await database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        let reading = try await database.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(writing == 2, "synchronous = FULL on the writer (1 is NORMAL: a power cut may lose acknowledged saves)")
        #expect(reading == 2)

        let media = try MediaDatabase.open(besideMain: path)
        let mediaWriting = try await media.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(mediaWriting == 2)
    }
}
