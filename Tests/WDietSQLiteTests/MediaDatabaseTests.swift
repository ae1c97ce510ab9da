import Foundation
import GRDB
import Testing
import WDietSQLite
import WDietStore
import WDietTestSupport

/// SQLite's media live in a database file of their own beside the main one (docs/media.md).
@Suite("SQLite media database")
struct MediaDatabaseTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-media-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("a photo goes to wdiet.sqlite-media, never into the main file or its write-ahead log; no media file before the first use")
    func separateFile() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = folder.appendingPathComponent("wdiet.sqlite").path
        let database = try AppDatabase.open(path: main)
        let user = try await SQLiteUserStore(database: database).createUser(id: UUID(), email: nil, displayName: "Ana").id
        #expect(!FileManager.default.fileExists(atPath: main + "-media"))
        let mainWAL = Self.size(main + "-wal")

        let store = SQLiteMediaStore(database: database)
        let bytes = Data((0..<2_000_000).map { UInt8($0 % 253) })
        _ = try await store.saveMedia(
            NewMedia(id: UUID(), kind: .audio, contentType: "audio/webm", data: bytes, thumbnail: nil, width: nil, height: nil, uploadDigest: "d"),
            userId: user)

        #expect(MediaDatabase.mediaPath(besideMain: main) == main + "-media")
        #expect(FileManager.default.fileExists(atPath: main + "-media"))
        // The 2 MB went to the media file's WAL (or file), not to the main one's.
        #expect(Self.size(main + "-media-wal") + Self.size(main + "-media") > 2_000_000)
        #expect(Self.size(main + "-wal") == mainWAL)
        let mainTables = try await database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'media'")
        }
        #expect(mainTables == [])
        // Opened again (a restart), the item is there.
        let reopened = try AppDatabase.open(path: main)
        #expect(try await SQLiteMediaStore(database: reopened).allMedia(userId: user).map(\.bytes) == [2_000_000])
    }

    @Test("at start, media of users the main database no longer has are deleted; the others' stay")
    func deletesMediaOfMissingUsers() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = folder.appendingPathComponent("wdiet.sqlite").path
        let database = try AppDatabase.open(path: main)
        // No media file yet: nothing to do, and none is made.
        #expect(try await SQLiteMediaStore(database: database).deleteMediaOfMissingUsers(in: database) == 0)
        #expect(!FileManager.default.fileExists(atPath: main + "-media"))

        let users = SQLiteUserStore(database: database)
        let ana = try await users.createUser(id: UUID(), email: nil, displayName: "Ana").id
        let gone = UUID()
        let store = SQLiteMediaStore(database: database)
        for owner in [ana, gone, gone] {
            _ = try await store.saveMedia(
                NewMedia(id: UUID(), kind: .audio, contentType: "audio/ogg", data: Data("OggS".utf8), thumbnail: nil, width: nil, height: nil, uploadDigest: "e"),
                userId: owner)
        }
        let restarted = try AppDatabase.open(path: main)
        #expect(try await SQLiteMediaStore(database: restarted).deleteMediaOfMissingUsers(in: restarted) == 2)
        #expect(try await store.allMedia(userId: gone) == [])
        #expect(try await store.allMedia(userId: ana).count == 1)
    }
}
