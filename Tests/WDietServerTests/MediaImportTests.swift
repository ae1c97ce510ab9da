import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietTestSupport
import ZIPFoundation

@testable import WDietServer

/// Issue 18 (docs/media.md "Export and import"): the export zip carries the photos and recordings and its
/// `export.json`; importing the zip restores them under their own ids, each checked as an upload is; rows that name
/// media neither in the import nor the account's lose the reference.
@Suite("API: media in the export and the import")
struct MediaImportTests {
    /// `POST /api/v1/import` with a zip.
    static func importZip(_ client: any TestClientProtocol, _ zip: Data, _ session: APISession) async throws -> TestResponse {
        try await client.execute(
            uri: "/api/v1/import", method: .post,
            headers: [.authorization: "Bearer \(session.token)", .contentType: "application/zip"], body: ByteBuffer(data: zip))
    }

    /// Every file of a zip by its path.
    static func files(_ zip: Data) throws -> [String: Data] {
        try ExportZipFileTests.files(in: Archive(data: zip, accessMode: .read))
    }

    /// A zip of `files`.
    static func zip(_ files: [String: Data]) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return try #require(archive.data)
    }

    /// Ana's account: a photo (uploaded with GPS EXIF) and a recording, a journal entry naming both. Answers the ids
    /// and the bytes the server serves for each.
    /// `tick` moves the test's clock a second on, so the photo is listed (and imported) first.
    static func anasAccount(
        _ client: any TestClientProtocol, _ ana: APISession, tick: () -> Void
    ) async throws -> (photo: String, audio: String, entry: String, photoBytes: Data, thumbnail: Data) {
        let photoId = MediaAPITests.newId()
        let audioId = MediaAPITests.newId()
        #expect(try await MediaAPITests.put(client, photoId, try await MediaFixtures.photo(width: 1_200, height: 900), type: "image/jpeg", ana).status == .created)
        tick()
        #expect(try await MediaAPITests.put(client, audioId, MediaAPITests.webm, type: "audio/webm", ana).status == .created)
        let entry = try await client.api(.post, "/api/v1/journal/entries", ana, json: [
            "processedDescription": "Masala dosa at lunch", "inputType": "photo", "mediaIds": [photoId, audioId],
        ])
        #expect(entry.status == .created, "\(entry.text)")
        let entryId = try #require((try entry.object()["entry"] as? [String: Any])?["id"] as? String)
        let photo = Data(buffer: try await MediaAPITests.get(client, "/api/v1/media/\(photoId)", ana).body)
        let thumbnail = Data(buffer: try await MediaAPITests.get(client, "/api/v1/media/\(photoId)?size=thumb", ana).body)
        return (photoId, audioId, entryId, photo, thumbnail)
    }

    @Test("export zip → account deleted → a new account imports it: the photo and the recording read back byte for byte, the entry names them",
          arguments: StoreBackend.allCases)
    func roundTrip(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInWithProfile()
            let anas = try await Self.anasAccount(client, ana) { t.clock.advance(seconds: 1) }

            let json = try await client.api(.get, "/api/v1/export?format=json", ana)
            let document = try json.object()
            let listed = try #require(document["media"] as? [[String: Any]])
            #expect(listed.map { $0["id"] as? String } == [anas.photo, anas.audio])
            #expect(listed.map { $0["file"] as? String } == ["media/\(anas.photo).jpg", "media/\(anas.audio).webm"])
            #expect(listed.first?["bytes"] as? Int == anas.photoBytes.count)

            let exported = try await client.api(.get, "/api/v1/export?format=csv", ana)
            #expect(exported.status == .ok)
            let zip = Data(buffer: exported.body)
            let files = try Self.files(zip)
            #expect(files["media/\(anas.photo).jpg"] == anas.photoBytes)
            let inside = try JSONSerialization.jsonObject(with: try #require(files["export.json"])) as? [String: Any]
            #expect((inside?["media"] as? [[String: Any]])?.count == 2)

            #expect(try await client.api(.delete, "/api/v1/account", ana, json: ["confirm": "DELETE"]).status == .noContent)
            #expect(try await t.services.media.allMedia(userId: ana.userId) == [])

            let ben = try await client.signInAsGuest()
            let imported = try await Self.importZip(client, zip, ben)
            #expect(imported.status == .created, "\(imported.text)")
            let counts = try #require(try imported.object()["imported"] as? [String: Any])
            #expect(counts["media"] as? Int == 2)
            #expect(counts["rows"] as? Int == 1)
            #expect(try imported.object()["droppedMediaReferences"] as? Int == 0)

            let photo = try await MediaAPITests.get(client, "/api/v1/media/\(anas.photo)", ben)
            #expect(photo.status == .ok)
            #expect(Data(buffer: photo.body) == anas.photoBytes)
            let thumbnail = try await MediaAPITests.get(client, "/api/v1/media/\(anas.photo)?size=thumb", ben)
            #expect(thumbnail.status == .ok)
            // Made again from the display JPEG, as at the upload: the same size.
            #expect(JPEGFrame.read(Data(buffer: thumbnail.body))?.width == JPEGFrame.read(anas.thumbnail)?.width)
            #expect(JPEGFrame.read(Data(buffer: thumbnail.body))?.width == 320)
            let audio = try await MediaAPITests.get(client, "/api/v1/media/\(anas.audio)", ben)
            #expect(Data(buffer: audio.body) == MediaAPITests.webm)
            #expect(audio.headers[.contentType] == "audio/webm")
            let entries = try await t.services.journal.allEntries(userId: ben.userId)
            #expect(entries.map(\.mediaIds) == [[UUID(uuidString: anas.photo)!, UUID(uuidString: anas.audio)!]])

            // The same zip again: the account is not empty any more (409), and the items are not doubled or removed.
            let again = try await Self.importZip(client, zip, ben)
            #expect(again.status == .conflict, "\(again.text)")
            #expect(try await t.services.media.allMedia(userId: ben.userId).count == 2)
        }
    }

    @Test("the JSON export carries no bytes: its import keeps the entry without the media it names (2 references dropped)",
          arguments: StoreBackend.allCases)
    func jsonImportDropsReferences(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInWithProfile()
            let anas = try await Self.anasAccount(client, ana) { t.clock.advance(seconds: 1) }
            let json = try await client.api(.get, "/api/v1/export?format=json", ana)
            let ben = try await client.signInAsGuest()
            // Ben has one of the ids already (his own upload under the same id): that reference stays.
            #expect(try await MediaAPITests.put(client, anas.audio, MediaAPITests.webm, type: "audio/webm", ben).status == .created)
            let imported = try await client.api(.post, "/api/v1/import", ben, body: json.text)
            #expect(imported.status == .created, "\(imported.text)")
            #expect(try imported.object()["droppedMediaReferences"] as? Int == 1)
            #expect((try imported.object()["imported"] as? [String: Any])?["media"] as? Int == 0)
            let entries = try await t.services.journal.allEntries(userId: ben.userId)
            #expect(entries.map(\.processedDescription) == ["Masala dosa at lunch"])
            #expect(entries.map(\.mediaIds) == [[UUID(uuidString: anas.audio)!]])
            #expect(try await MediaAPITests.get(client, "/api/v1/media/\(anas.photo)", ben).status == .notFound)
        }
    }

    @Test("a zip's photo with GPS EXIF is processed as an upload (no metadata comes in); a non-image photo refuses the whole import",
          arguments: StoreBackend.allCases)
    func smuggling(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInWithProfile()
            let anas = try await Self.anasAccount(client, ana) { t.clock.advance(seconds: 1) }
            var files = try Self.files(Data(buffer: try await client.api(.get, "/api/v1/export?format=csv", ana).body))
            // A hand-made JPEG with GPS and XMP under the photo's name.
            let smuggled = try await MediaFixtures.photo(width: 2_000, height: 1_000)
            #expect(try await MediaFixtures.metadata(of: smuggled).contains("GPSLatitude"))
            files["media/\(anas.photo).jpg"] = smuggled
            let ben = try await client.signInAsGuest()
            let imported = try await Self.importZip(client, try Self.zip(files), ben)
            #expect(imported.status == .created, "\(imported.text)")
            let stored = Data(buffer: try await MediaAPITests.get(client, "/api/v1/media/\(anas.photo)", ben).body)
            #expect(stored != smuggled)
            #expect(try await MediaFixtures.metadata(of: stored) == "")
            // Re-encoded at display size: 1600×800.
            #expect(JPEGFrame.read(stored)?.width == 1_600)
            #expect(JPEGFrame.read(stored)?.height == 800)

            // Text under the recording's name: 422 naming media.1, nothing of the import kept (the photo stored
            // before it is deleted again), the account still empty.
            files["media/\(anas.photo).jpg"] = anas.photoBytes
            files["media/\(anas.audio).webm"] = Data("#!/bin/sh\necho not a recording\n".utf8)
            let carl = try await client.signInAsGuest()
            let refused = try await Self.importZip(client, try Self.zip(files), carl)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            let fields = try refused.errorDetail().fields ?? [:]
            #expect(fields["media.1"] != nil, "\(refused.text)")
            #expect(fields["media.0"] == nil)
            #expect(try await t.services.media.allMedia(userId: carl.userId) == [])
            #expect(try await t.services.journal.allEntries(userId: carl.userId).isEmpty)

            // A file the document lists but the zip lacks: refused the same way.
            files["media/\(anas.photo).jpg"] = nil
            let missing = try await Self.importZip(client, try Self.zip(files), carl)
            #expect(missing.status == .unprocessableContent, "\(missing.text)")
            #expect(try missing.errorDetail().fields?["media.0"]?.contains("media/\(anas.photo).jpg") == true)
            // Not a zip at all.
            let junk = try await Self.importZip(client, Data("PK? no".utf8), carl)
            #expect(junk.status == .unprocessableContent, "\(junk.text)")
        }
    }

    @Test("a bare JPEG is one without APPn, comments or trailing bytes")
    func bareJPEG() async throws {
        let stripped = try await MediaFixtures.photo(width: 40, height: 30, metadata: false)
        // vips writes a JFIF APP0 for a JPEG saved without strip; with GPS and XMP even more.
        #expect(!BareJPEG.isBare(stripped))
        #expect(!BareJPEG.isBare(try await MediaFixtures.photo(width: 40, height: 30)))
        let folder = try MediaFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jpg")
        try stripped.write(to: input)
        let output = folder.appendingPathComponent("out.jpg").path
        try await MediaFixtures.run("vipsthumbnail", [input.path, "--size", "1600x1600>", "-o", output + "[Q=82,strip,optimize_coding]"])
        let bare = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(BareJPEG.isBare(bare))
        #expect(!BareJPEG.isBare(bare + Data([0x00])))
        #expect(!BareJPEG.isBare(bare.prefix(bare.count - 2)))
        // A comment segment (FF FE) after SOI.
        var commented = Data([0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x06]) + Data("hi!!".utf8)
        commented += bare.dropFirst(2)
        #expect(!BareJPEG.isBare(commented))
    }
}
