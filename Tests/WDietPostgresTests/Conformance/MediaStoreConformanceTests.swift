import Foundation
import Testing
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// `MediaStore` on SQLite (its own media database beside the main one) and PostgreSQL (the `media` table): the same
/// answers from both.
@Suite("Media store conformance")
struct MediaStoreConformanceTests {
    /// The media store on the coach stores' database, with their clock.
    static func media(_ stores: CoachStores) -> any MediaStore {
        switch stores.database {
        case .sqlite(let database): SQLiteMediaStore(database: database, now: stores.clock.closure)
        case .postgres(let client): PostgresMediaStore(client: client, now: stores.clock.closure)
        }
    }

    static func photo(_ id: UUID = UUID(), display: [UInt8] = [0xFF, 0xD8, 1, 2, 3], digest: String = "aa") -> NewMedia {
        NewMedia(
            id: id, kind: .photo, contentType: "image/jpeg", data: Data(display), thumbnail: Data([0xFF, 0xD8, 9]),
            width: 1600, height: 1200, uploadDigest: digest)
    }

    @Test("a photo is stored and read back: its metadata, its display bytes and its thumbnail", arguments: StoreBackend.allCases)
    func savesAndReads(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let user = try await stores.makeUser()
            let id = UUID()
            let outcome = try await media.saveMedia(Self.photo(id), userId: user)
            let expected = StoredMedia(
                id: id, userId: user, kind: .photo, contentType: "image/jpeg", bytes: 5, thumbnailBytes: 3, width: 1600,
                height: 1200, uploadDigest: "aa", createdAt: Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(outcome == .created(expected))
            #expect(try await media.media(id: id, userId: user) == expected)
            #expect(try await media.mediaContent(id: id, userId: user, variant: .display) == Data([0xFF, 0xD8, 1, 2, 3]))
            #expect(try await media.mediaContent(id: id, userId: user, variant: .thumbnail) == Data([0xFF, 0xD8, 9]))
        }
    }

    @Test("a recording keeps its type and bytes and has no thumbnail or size", arguments: StoreBackend.allCases)
    func audio(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let user = try await stores.makeUser()
            let id = UUID()
            let bytes = Data((0..<70_000).map { UInt8($0 % 251) })
            let saved = try await media.saveMedia(
                NewMedia(id: id, kind: .audio, contentType: "audio/webm", data: bytes, thumbnail: nil, width: nil, height: nil, uploadDigest: "bb"),
                userId: user
            ).media
            #expect(saved.kind == .audio && saved.contentType == "audio/webm" && saved.bytes == 70_000)
            #expect(saved.thumbnailBytes == nil && saved.width == nil && saved.height == nil)
            #expect(try await media.mediaContent(id: id, userId: user, variant: .display) == bytes)
            #expect(try await media.mediaContent(id: id, userId: user, variant: .thumbnail) == nil)
        }
    }

    @Test("a second save of an id answers the first, unchanged", arguments: StoreBackend.allCases)
    func secondSaveKeepsTheFirst(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let user = try await stores.makeUser()
            let id = UUID()
            let first = try await media.saveMedia(Self.photo(id, display: [0xFF, 0xD8, 1], digest: "first"), userId: user).media
            stores.clock.advance(seconds: 60)
            let second = try await media.saveMedia(Self.photo(id, display: [0xFF, 0xD8, 2, 2], digest: "second"), userId: user)
            #expect(second == .existing(first))
            #expect(second.media.uploadDigest == "first")
            #expect(try await media.mediaContent(id: id, userId: user, variant: .display) == Data([0xFF, 0xD8, 1]))
            #expect(try await media.allMedia(userId: user).count == 1)
        }
    }

    @Test("two saves of one id at once store one of them", arguments: StoreBackend.allCases)
    func concurrentSaves(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let user = try await stores.makeUser()
            let id = UUID()
            async let a = media.saveMedia(Self.photo(id, digest: "a"), userId: user)
            async let b = media.saveMedia(Self.photo(id, digest: "b"), userId: user)
            let outcomes = try await [a, b]
            let created = outcomes.filter { if case .created = $0 { true } else { false } }
            #expect(created.count == 1)
            #expect(Set(outcomes.map(\.media.uploadDigest)).count == 1)
        }
    }

    @Test("another user's item is not there: not read, not deleted; each user may use the same id", arguments: StoreBackend.allCases)
    func scopedToTheUser(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let ana = try await stores.makeUser()
            let ben = try await stores.makeUser()
            let id = UUID()
            _ = try await media.saveMedia(Self.photo(id, display: [0xFF, 0xD8, 0xA], digest: "ana"), userId: ana)
            #expect(try await media.media(id: id, userId: ben) == nil)
            #expect(try await media.mediaContent(id: id, userId: ben, variant: .display) == nil)
            #expect(try await media.deleteMedia(id: id, userId: ben) == false)
            #expect(try await media.allMedia(userId: ben) == [])
            // Ben's item under the same id is his own.
            #expect(try await media.saveMedia(Self.photo(id, display: [0xFF, 0xD8, 0xB], digest: "ben"), userId: ben).media.userId == ben)
            #expect(try await media.mediaContent(id: id, userId: ana, variant: .display) == Data([0xFF, 0xD8, 0xA]))
            #expect(try await media.mediaContent(id: id, userId: ben, variant: .display) == Data([0xFF, 0xD8, 0xB]))
        }
    }

    @Test("delete removes the item and its bytes; a second delete finds nothing", arguments: StoreBackend.allCases)
    func deletes(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let user = try await stores.makeUser()
            let id = UUID()
            _ = try await media.saveMedia(Self.photo(id), userId: user)
            #expect(try await media.deleteMedia(id: id, userId: user))
            #expect(try await media.media(id: id, userId: user) == nil)
            #expect(try await media.mediaContent(id: id, userId: user, variant: .thumbnail) == nil)
            #expect(try await media.deleteMedia(id: id, userId: user) == false)
        }
    }

    @Test("all of a user's items oldest first; deleting them all leaves other users' alone", arguments: StoreBackend.allCases)
    func listsAndDeletesAll(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let ana = try await stores.makeUser()
            let ben = try await stores.makeUser()
            let ids = [UUID(), UUID(), UUID()]
            for id in ids {
                _ = try await media.saveMedia(Self.photo(id), userId: ana)
                stores.clock.advance(seconds: 1)
            }
            _ = try await media.saveMedia(Self.photo(), userId: ben)
            let listed = try await media.allMedia(userId: ana)
            #expect(listed.map(\.id) == ids)
            #expect(listed.map(\.createdAt) == [
                Fixtures.utc("2026-03-01T09:00:00Z"), Fixtures.utc("2026-03-01T09:00:01Z"), Fixtures.utc("2026-03-01T09:00:02Z"),
            ])
            #expect(try await media.deleteAllMedia(userId: ana) == 3)
            #expect(try await media.allMedia(userId: ana) == [])
            #expect(try await media.allMedia(userId: ben).count == 1)
        }
    }

    @Test("a 5 MB recording comes back byte for byte", arguments: StoreBackend.allCases)
    func largeItem(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let media = Self.media(stores)
            let user = try await stores.makeUser()
            var generator = SystemRandomNumberGenerator()
            let bytes = Data((0..<5_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let id = UUID()
            _ = try await media.saveMedia(
                NewMedia(id: id, kind: .audio, contentType: "audio/mp4", data: bytes, thumbnail: nil, width: nil, height: nil, uploadDigest: "c"),
                userId: user)
            #expect(try await media.mediaContent(id: id, userId: user, variant: .display) == bytes)
            #expect(try await media.media(id: id, userId: user)?.bytes == 5_000_000)
        }
    }
}
