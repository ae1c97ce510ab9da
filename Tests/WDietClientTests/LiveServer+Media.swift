import Foundation
import WDietStore

extension LiveServer {
    /// `count` recordings in the user's media store, as a client uploads them (`PUT /api/v1/media/{id}`) before it
    /// names them in a journal entry: the sync push refuses an entry naming media the user has not uploaded
    /// (docs/media.md, "References").
    func uploadedMedia(userId: UUID, count: Int) async throws -> [UUID] {
        var ids: [UUID] = []
        for index in 0..<count {
            let id = UUID()
            // WebM's EBML header and a few bytes: a recording as a browser's MediaRecorder starts it.
            let data = Data([0x1A, 0x45, 0xDF, 0xA3] + Array(repeating: UInt8(index % 256), count: 64))
            _ = try await services.media.saveMedia(NewMedia(
                id: id, kind: .audio, contentType: "audio/webm", data: data, thumbnail: nil, width: nil, height: nil,
                uploadDigest: "fixture-\(id.uuidString)"), userId: userId)
            ids.append(id)
        }
        return ids
    }
}
