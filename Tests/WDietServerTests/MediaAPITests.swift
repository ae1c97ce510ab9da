import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WDietCore
import WDietTestSupport
import ZIPFoundation

@testable import WDietServer

@Suite("API: media (photos and recordings)")
struct MediaAPITests {
    /// `PUT /api/v1/media/{id}` with raw bytes.
    static func put(
        _ client: any TestClientProtocol, _ id: String, _ data: Data, type: String?, _ session: APISession
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(session.token)"]
        if let type { headers[.contentType] = type }
        return try await client.execute(uri: "/api/v1/media/\(id)", method: .put, headers: headers, body: ByteBuffer(data: data))
    }

    static func get(_ client: any TestClientProtocol, _ path: String, _ session: APISession) async throws -> TestResponse {
        try await client.execute(uri: path, method: .get, headers: [.authorization: "Bearer \(session.token)"])
    }

    static func newId() -> String { UUID().uuidString.lowercased() }

    /// WebM's EBML header and a few bytes: what a browser's MediaRecorder writes first.
    static let webm = Data([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01] + Array(repeating: 0x42, count: 2_000))

    @Test("a JPEG with GPS and an EXIF orientation: 201, turned upright, no metadata left, display size and thumbnail", arguments: StoreBackend.allCases)
    func photoUpload(_ backend: StoreBackend) async throws {
        // 2000×1000 as stored, EXIF orientation 6 (turn 90° clockwise to show): upright it is 1000×2000.
        let photo = try await MediaFixtures.photo(width: 2_000, height: 1_000, orientation: 6)
        // The control: the upload carries what must go.
        let before = try await MediaFixtures.metadata(of: photo)
        #expect(before.contains("GPSLatitude") && before.contains("TestCam") && before.contains("secret comment") && before.contains("xmp secret"))
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let id = Self.newId()
            let response = try await Self.put(client, id, photo, type: "image/jpeg", ana)
            #expect(response.status == .created, "\(response.text)")
            #expect(response.headers[.location] == "/api/v1/media/\(id)")
            #expect(response.headers[.cacheControl] == "private, no-store")
            let json = try response.object()
            #expect(json["id"] as? String == id)
            #expect(json["kind"] as? String == "photo")
            #expect(json["contentType"] as? String == "image/jpeg")
            // Upright, longest side 1600: 800×1600.
            #expect(number(json["width"]) == 800)
            #expect(number(json["height"]) == 1_600)
            #expect(json["createdAt"] as? String == "2026-03-01T09:00:00.000Z")

            let display = try await Self.get(client, "/api/v1/media/\(id)", ana)
            #expect(display.status == .ok)
            #expect(display.headers[.contentType] == "image/jpeg")
            #expect(display.headers[.cacheControl] == "private, no-store")
            let displayData = Data(buffer: display.body)
            #expect(number(json["bytes"]) == Double(displayData.count))
            #expect(JPEGFrame.read(displayData)?.width == 800)
            #expect(JPEGFrame.read(displayData)?.height == 1_600)
            #expect(try await MediaFixtures.metadata(of: displayData) == "")

            let thumbnail = try await Self.get(client, "/api/v1/media/\(id)?size=thumb", ana)
            #expect(thumbnail.status == .ok)
            #expect(thumbnail.headers[.contentType] == "image/jpeg")
            #expect(thumbnail.headers[.cacheControl] == "private, no-store")
            let thumbnailData = Data(buffer: thumbnail.body)
            #expect(JPEGFrame.read(thumbnailData)?.width == 160)
            #expect(JPEGFrame.read(thumbnailData)?.height == 320)
            #expect(try await MediaFixtures.metadata(of: thumbnailData) == "")
            #expect(thumbnailData.count < displayData.count)

            #expect(try await Self.get(client, "/api/v1/media/\(id)?size=huge", ana).status == .badRequest)
        }
    }

    @Test("the orientation is applied pixel by pixel: the top-left corner of the upright picture is the stored bottom-left")
    func orientationPixels() async throws {
        // Red grows with x, green with y (`MediaFixtures.photo`). Orientation 6: upright (0,0) is stored (0, h-1),
        // so its green is high and its red low.
        let photo = try await MediaFixtures.photo(width: 300, height: 200, orientation: 6)
        try await TestApp.test(.sqlite) { t, client in
            let ana = try await client.signInAsGuest()
            let id = Self.newId()
            #expect(try await Self.put(client, id, photo, type: "image/jpeg", ana).status == .created)
            let display = Data(buffer: try await Self.get(client, "/api/v1/media/\(id)", ana).body)
            #expect(JPEGFrame.read(display)?.width == 200 && JPEGFrame.read(display)?.height == 300)
            let folder = try MediaFixtures.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("d.jpg")
            try display.write(to: file)
            let pixel = try await MediaFixtures.run("vips", ["getpoint", file.path, "2", "2"])
            let values = pixel.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
            #expect(values.count == 3)
            // Stored (2, 197): red ≈ 1, green ≈ 98.
            #expect(values[0] < 10, "red \(values)")
            #expect(values[1] > 85, "green \(values)")
        }
    }

    @Test("the same id with the same bytes is 200 with the first answer; with other bytes 409, the first kept", arguments: StoreBackend.allCases)
    func idempotentAndConflict(_ backend: StoreBackend) async throws {
        let photo = try await MediaFixtures.photo(width: 320, height: 240)
        let other = try await MediaFixtures.photo(width: 240, height: 320)
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let id = Self.newId()
            let first = try await Self.put(client, id, photo, type: "image/jpeg", ana)
            #expect(first.status == .created)
            t.clock.advance(seconds: 60)
            let again = try await Self.put(client, id, photo, type: "image/jpeg", ana)
            #expect(again.status == .ok)
            #expect(again.text == first.text)
            #expect(again.headers[.location] == nil)

            let conflict = try await Self.put(client, id, other, type: "image/jpeg", ana)
            #expect(conflict.status == .conflict)
            #expect(try conflict.errorDetail().code == "media_conflict")
            #expect(try conflict.errorDetail().message == "A different photo or recording was already uploaded under this id. Upload it with a new id")
            let stored = Data(buffer: try await Self.get(client, "/api/v1/media/\(id)", ana).body)
            #expect(JPEGFrame.read(stored)?.width == 320)
        }
    }

    @Test("too large: 413 and nothing stored (a photo over 30 MiB, a recording over 25 MiB, a picture over the pixel limit)", arguments: StoreBackend.allCases)
    func tooLarge(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            var big = Data([0xFF, 0xD8, 0xFF, 0xE0])
            big.append(Data(count: 30 * 1_024 * 1_024))
            let photoId = Self.newId()
            let photo = try await Self.put(client, photoId, big, type: "image/jpeg", ana)
            #expect(photo.status == .contentTooLarge)
            #expect(try photo.errorDetail().code == "too_large")
            #expect(try photo.errorDetail().message == "This photo is too large: at most 30 MB")
            var bigAudio = Self.webm
            bigAudio.append(Data(count: 25 * 1_024 * 1_024))
            let audioId = Self.newId()
            let audio = try await Self.put(client, audioId, bigAudio, type: "audio/webm", ana)
            #expect(audio.status == .contentTooLarge)
            #expect(try audio.errorDetail().message == "This recording is too large: at most 25 MB")
            #expect(try await Self.get(client, "/api/v1/media/\(photoId)", ana).status == .notFound)
            #expect(try await Self.get(client, "/api/v1/media/\(audioId)", ana).status == .notFound)
            #expect(try await t.services.media.allMedia(userId: ana.userId) == [])
        }
    }

    @Test("a picture with more pixels than allowed: 413 before it is decoded")
    func tooManyPixels() async throws {
        let photo = try await MediaFixtures.photo(width: 400, height: 300)
        var changed = try TestApp().services
        changed.mediaProcessing.maxPixels = 100_000
        let services = changed
        try await Self.withApp(services) { client in
            let ana = try await client.signInAsGuest()
            let response = try await Self.put(client, Self.newId(), photo, type: "image/jpeg", ana)
            #expect(response.status == .contentTooLarge)
            #expect(try response.errorDetail().code == "too_many_pixels")
            #expect(try await services.media.allMedia(userId: ana.userId) == [])
        }
    }

    @Test("not an image, not audio, an unreadable photo, no or another Content-Type: 415 and nothing stored", arguments: StoreBackend.allCases)
    func unsupported(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let cases: [(Data, String?, String, String)] = [
                (Data("hello, not a photo".utf8), "image/jpeg", "not_an_image", "This file is not a JPEG, PNG, WebP or HEIC photo"),
                // A JPEG's first bytes, then nothing a decoder can read.
                (Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x17, count: 500)), "image/jpeg", "image_undecodable",
                 "This photo could not be read. Try another photo, or save it as JPEG first"),
                // A recording sent as a photo, a photo sent as a recording.
                (Self.webm, "image/png", "not_an_image", "This file is not a JPEG, PNG, WebP or HEIC photo"),
                (try await MediaFixtures.photo(width: 20, height: 20), "audio/webm", "not_audio",
                 "This file is not an MP4/M4A, AAC, MP3, WebM, Ogg or WAV recording"),
                (Data("<svg/>".utf8), "image/svg+xml", "unsupported_media_type",
                 "Upload a photo (JPEG, PNG, WebP or HEIC) or a recording (MP4/M4A, AAC, MP3, WebM, Ogg or WAV), with its Content-Type"),
                (try await MediaFixtures.photo(width: 20, height: 20), nil, "unsupported_media_type",
                 "Upload a photo (JPEG, PNG, WebP or HEIC) or a recording (MP4/M4A, AAC, MP3, WebM, Ogg or WAV), with its Content-Type"),
            ]
            for (data, type, code, message) in cases {
                let id = Self.newId()
                let response = try await Self.put(client, id, data, type: type, ana)
                #expect(response.status == .unsupportedMediaType, "\(type ?? "no type"): \(response.text)")
                #expect(try response.errorDetail().code == code)
                #expect(try response.errorDetail().message == message)
                #expect(!response.text.contains("/tmp"))
                #expect(try await Self.get(client, "/api/v1/media/\(id)", ana).status == .notFound)
            }
            #expect(try await t.services.media.allMedia(userId: ana.userId) == [])
            // The messages in German too.
            var headers: HTTPFields = [.authorization: "Bearer \(ana.token)", .contentType: "image/jpeg", .acceptLanguage: "de"]
            headers[.contentType] = "image/jpeg"
            let german = try await client.execute(
                uri: "/api/v1/media/\(Self.newId())", method: .put, headers: headers, body: ByteBuffer(string: "kein Foto"))
            #expect(try german.errorDetail().message == "Diese Datei ist kein JPEG-, PNG-, WebP- oder HEIC-Foto")
        }
    }

    @Test("PNG, WebP and HEIC come in and are served as JPEG")
    func otherFormats() async throws {
        let inputs = [
            ("png", "image/png"), ("webp", "image/webp"), ("heic", "image/heic"),
        ]
        try await TestApp.test(.sqlite) { t, client in
            let ana = try await client.signInAsGuest()
            for (format, type) in inputs {
                let photo = try await MediaFixtures.photo(width: 64, height: 48, format: format)
                let id = Self.newId()
                let response = try await Self.put(client, id, photo, type: type, ana)
                #expect(response.status == .created, "\(format): \(response.text)")
                let json = try response.object()
                #expect(json["contentType"] as? String == "image/jpeg")
                #expect(number(json["width"]) == 64 && number(json["height"]) == 48, "\(format)")
                let display = Data(buffer: try await Self.get(client, "/api/v1/media/\(id)", ana).body)
                #expect(MediaFormat.sniff(display) == .jpeg)
            }
        }
    }

    @Test("a recording is kept as recorded: its sniffed type, its bytes, no size, no thumbnail", arguments: StoreBackend.allCases)
    func audio(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let id = Self.newId()
            let response = try await Self.put(client, id, Self.webm, type: "audio/webm;codecs=opus", ana)
            #expect(response.status == .created)
            let json = try response.object()
            #expect(json["kind"] as? String == "audio")
            #expect(json["contentType"] as? String == "audio/webm")
            #expect(number(json["bytes"]) == Double(Self.webm.count))
            #expect(json["width"] is NSNull && json["height"] is NSNull)
            let back = try await Self.get(client, "/api/v1/media/\(id)", ana)
            #expect(back.headers[.contentType] == "audio/webm")
            #expect(Data(buffer: back.body) == Self.webm)
            #expect(try await Self.get(client, "/api/v1/media/\(id)?size=thumb", ana).status == .notFound)
        }
    }

    @Test("another user's media: 404 on read, thumbnail and delete, nothing shown; the same id is theirs to use", arguments: StoreBackend.allCases)
    func anotherUser(_ backend: StoreBackend) async throws {
        let photo = try await MediaFixtures.photo(width: 100, height: 80)
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let ben = try await client.signInAsGuest()
            let id = Self.newId()
            #expect(try await Self.put(client, id, photo, type: "image/jpeg", ana).status == .created)
            for path in ["/api/v1/media/\(id)", "/api/v1/media/\(id)?size=thumb"] {
                let response = try await Self.get(client, path, ben)
                #expect(response.status == .notFound)
                #expect(try response.errorDetail().message == "Photo or recording not found")
                #expect(response.headers[.cacheControl] == "private, no-store")
            }
            #expect(try await client.api(.delete, "/api/v1/media/\(id)", ben).status == .notFound)
            // Without a session: 401.
            #expect(try await client.execute(uri: "/api/v1/media/\(id)", method: .get).status == .unauthorized)
            // Ben's upload under the id is his own; Ana's stays hers.
            #expect(try await Self.put(client, id, Self.webm, type: "audio/webm", ben).status == .created)
            #expect(try await Self.get(client, "/api/v1/media/\(id)", ana).headers[.contentType] == "image/jpeg")
            #expect(try await Self.get(client, "/api/v1/media/\(id)", ben).headers[.contentType] == "audio/webm")
        }
    }

    @Test("DELETE: 204, then gone; again 404", arguments: StoreBackend.allCases)
    func delete(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let id = Self.newId()
            #expect(try await Self.put(client, id, Self.webm, type: "audio/webm", ana).status == .created)
            let deleted = try await client.api(.delete, "/api/v1/media/\(id)", ana)
            #expect(deleted.status == .noContent)
            #expect(try await Self.get(client, "/api/v1/media/\(id)", ana).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/media/\(id)", ana).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/media/not-an-id", ana).status == .badRequest)
        }
    }

    @Test("without libvips' tools a photo is 503 with a clear message; recordings still work")
    func withoutVips() async throws {
        let photo = try await MediaFixtures.photo(width: 100, height: 80)
        var services = try TestApp().services
        services.mediaProcessing.searchPath = ["/nonexistent"]
        try await Self.withApp(services) { client in
            let ana = try await client.signInAsGuest()
            let response = try await Self.put(client, Self.newId(), photo, type: "image/jpeg", ana)
            #expect(response.status == .serviceUnavailable)
            #expect(try response.errorDetail().code == "media_processing_unavailable")
            #expect(try response.errorDetail().message.contains("libvips"))
            #expect(try await Self.put(client, Self.newId(), Self.webm, type: "audio/webm", ana).status == .created)
        }
    }

    @Test("a photo whose processing runs out of time: 503 with Retry-After, nothing stored")
    func timeLimit() async throws {
        // Big enough that vips cannot finish within the 1 ms limit even on an idle machine.
        let photo = try await MediaFixtures.photo(width: 3000, height: 2000)
        var changed = try TestApp().services
        changed.mediaProcessing.timeLimit = .milliseconds(1)
        let services = changed
        try await Self.withApp(services) { client in
            let ana = try await client.signInAsGuest()
            let response = try await Self.put(client, Self.newId(), photo, type: "image/jpeg", ana)
            #expect(response.status == .serviceUnavailable)
            #expect(try response.errorDetail().code == "media_processing_busy")
            #expect(response.headers[.retryAfter] == "10")
            #expect(try await services.media.allMedia(userId: ana.userId) == [])
        }
    }

    @Test("account deletion deletes the account's media", arguments: StoreBackend.allCases)
    func accountDeletion(_ backend: StoreBackend) async throws {
        let photo = try await MediaFixtures.photo(width: 100, height: 80)
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let ben = try await client.signInAsGuest()
            #expect(try await Self.put(client, Self.newId(), photo, type: "image/jpeg", ana).status == .created)
            #expect(try await Self.put(client, Self.newId(), Self.webm, type: "audio/webm", ana).status == .created)
            #expect(try await Self.put(client, Self.newId(), Self.webm, type: "audio/webm", ben).status == .created)
            #expect(try await t.services.media.allMedia(userId: ana.userId).count == 2)
            let deleted = try await client.api(.delete, "/api/v1/account", ana, json: ["confirm": "DELETE"])
            #expect(deleted.status == .noContent)
            #expect(try await t.services.media.allMedia(userId: ana.userId) == [])
            #expect(try await t.services.media.allMedia(userId: ben.userId).count == 1)
        }
    }

    @Test("the CSV export's zip holds media.csv and each item's bytes under media/", arguments: StoreBackend.allCases)
    func export(_ backend: StoreBackend) async throws {
        let photo = try await MediaFixtures.photo(width: 100, height: 80)
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let photoId = Self.newId()
            let audioId = Self.newId()
            #expect(try await Self.put(client, photoId, photo, type: "image/jpeg", ana).status == .created)
            t.clock.advance(seconds: 1)
            #expect(try await Self.put(client, audioId, Self.webm, type: "audio/webm", ana).status == .created)
            let served = Data(buffer: try await Self.get(client, "/api/v1/media/\(photoId)", ana).body)

            let response = try await client.api(.get, "/api/v1/export?format=csv", ana)
            #expect(response.status == .ok)
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            var files: [String: Data] = [:]
            for entry in archive {
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                files[entry.path] = data
            }
            #expect(files["media/\(photoId).jpg"] == served)
            #expect(files["media/\(audioId).webm"] == Self.webm)
            #expect(files["account.csv"] != nil)
            let csv = String(decoding: try #require(files["media.csv"]), as: UTF8.self)
            #expect(csv == """
                id,kind,contentType,bytes,width,height,createdAt,file\r
                \(photoId),photo,image/jpeg,\(served.count),100,80,2026-03-01T09:00:00.000Z,media/\(photoId).jpg\r
                \(audioId),audio,audio/webm,\(Self.webm.count),,,2026-03-01T09:00:01.000Z,media/\(audioId).webm\r

                """)
            // Another user's export has none of it.
            let ben = try await client.signInAsGuest()
            let bens = try Archive(data: Data(buffer: try await client.api(.get, "/api/v1/export?format=csv", ben).body), accessMode: .read)
            #expect(!bens.contains { $0.path.hasPrefix("media") })
        }
    }

    /// The server on `services` (a changed `mediaProcessing`), SQLite.
    static func withApp(_ services: AppServices, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var logger = Logger(label: "wdiet-test")
        logger.logLevel = .warning
        let app = buildApplication(services: services, configuration: ServerConfiguration(bcryptCost: 4), logger: logger)
        try await app.test(.router) { client in try await body(client) }
    }
}

@Suite("Media: types by their bytes")
struct MediaSniffingTests {
    @Test("each format by its first bytes; a Content-Type by its kind, parameters and case ignored")
    func sniffing() {
        func bytes(_ text: String, _ rest: [UInt8] = []) -> Data { Data(text.utf8) + Data(rest) }
        let ftyp: (String, [String]) -> Data = { major, compatible in
            let size = 16 + 4 * compatible.count
            var data = Data([0, 0, 0, UInt8(size)]) + Data("ftyp\(major)".utf8) + Data([0, 0, 0, 0])
            for brand in compatible { data += Data(brand.utf8) }
            return data + Data(count: 16)
        }
        #expect(MediaFormat.sniff(Data([0xFF, 0xD8, 0xFF, 0xE1, 0, 0])) == .jpeg)
        #expect(MediaFormat.sniff(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])) == .png)
        #expect(MediaFormat.sniff(bytes("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ")) == .webp)
        #expect(MediaFormat.sniff(bytes("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ")) == .wav)
        #expect(MediaFormat.sniff(ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(MediaFormat.sniff(ftyp("mif1", ["mif1", "heic", "miaf"])) == .heic)
        #expect(MediaFormat.sniff(ftyp("M4A ", ["M4A ", "mp42", "isom"])) == .mp4Audio)
        #expect(MediaFormat.sniff(ftyp("iso5", ["iso5", "mp41"])) == .mp4Audio)
        #expect(MediaFormat.sniff(Data([0x1A, 0x45, 0xDF, 0xA3, 0x01])) == .webm)
        #expect(MediaFormat.sniff(bytes("OggS\u{0}\u{2}")) == .ogg)
        #expect(MediaFormat.sniff(bytes("ID3\u{4}\u{0}")) == .mpeg)
        #expect(MediaFormat.sniff(Data([0xFF, 0xFB, 0x90, 0x64])) == .mpeg)
        #expect(MediaFormat.sniff(Data([0xFF, 0xF1, 0x50, 0x80])) == .aac)
        #expect(MediaFormat.sniff(bytes("<svg xmlns")) == nil)
        #expect(MediaFormat.sniff(bytes("GIF89a")) == nil)
        #expect(MediaFormat.sniff(Data()) == nil)

        #expect(MediaFormat.announcedKind("image/JPEG") == .photo)
        #expect(MediaFormat.announcedKind("image/heif") == .photo)
        #expect(MediaFormat.announcedKind("audio/webm; codecs=opus") == .audio)
        #expect(MediaFormat.announcedKind("audio/mp4") == .audio)
        #expect(MediaFormat.announcedKind("image/gif") == nil)
        #expect(MediaFormat.announcedKind("application/octet-stream") == nil)
        #expect(MediaFormat.announcedKind(nil) == nil)
    }

    @Test("vipsheader's line read as a size; a JPEG's size from its frame header")
    func sizes() async throws {
        #expect(MediaProcessing.size(fromHeader: "/tmp/x: y/upload: 4032x3024 uchar, 3 bands, srgb, jpegload\n")! == (4_032, 3_024))
        #expect(MediaProcessing.size(fromHeader: "nonsense") == nil)
        let jpeg = try await MediaFixtures.photo(width: 123, height: 45, metadata: false)
        #expect(JPEGFrame.read(jpeg).map { [$0.width, $0.height] } == [123, 45])
        #expect(JPEGFrame.read(Data([0x89, 0x50])) == nil)
    }
}
