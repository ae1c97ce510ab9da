import Foundation
import Logging
import WDietCore
import WDietStore

/// The demo challenge's weekly photos (Settings → "Seed Demo Data"): so that Progress → Photos, the full-screen
/// view, Photo Comparison and the summary's first-vs-latest photos have something to show. Each is a drawn
/// pictogram — a standing figure a little narrower every week, on a plain background — never a picture of a person
/// (body photos are the person's own; the demo must not put one in front of them). The SVG is rendered to PNG by
/// `vips copy` (librsvg, as the recap's share card) and stored through the media store's own upload path, so it is
/// a photo like any other: a display JPEG and a thumbnail, deleted with the demo. Without the vips tools the demo
/// has no photos and everything else is seeded.
enum ChallengeDemoPhotos {
    static let width = 600
    static let height = 800
    static let timeLimit: Duration = .seconds(20)

    /// The pictogram of `week` (1…17): the figure's torso goes from 250 px wide in week 1 to 150 px in week 17.
    static func svg(week: Int) -> String {
        let torso = 250 - (100 * (min(max(week, 1), ChallengeDemoData.weeks) - 1)) / (ChallengeDemoData.weeks - 1)
        let left = 300 - torso / 2
        let leg = torso / 2 - 14
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
        <rect width="\(width)" height="\(height)" fill="#ECE9E4"/>
        <rect y="690" width="\(width)" height="110" fill="#D9D3CA"/>
        <g fill="#7A8594">
        <circle cx="300" cy="170" r="62"/>
        <rect x="\(left)" y="250" width="\(torso)" height="260" rx="\(min(torso / 2, 70))"/>
        <rect x="\(left + 8)" y="470" width="\(leg)" height="232" rx="30"/>
        <rect x="306" y="470" width="\(leg)" height="232" rx="30"/>
        <rect x="\(left - 52)" y="262" width="44" height="220" rx="22"/>
        <rect x="\(left + torso + 8)" y="262" width="44" height="220" rx="22"/>
        </g>
        </svg>
        """
    }

    /// Makes sure the user has the demo photo of each of `weeks` in the media store (an item stored by an earlier
    /// seeding is kept as it is); answers the weeks that have one. Stops at the first one that cannot be made
    /// (no vips, a busy machine): the demo then has the photos made so far.
    static func store(weeks: [Int], userId: UUID, services: AppServices, logger: Logger) async -> Set<Int> {
        var stored = Set<Int>()
        let upload = MediaUpload(store: services.media, processing: services.mediaProcessing)
        for week in weeks {
            let id = ChallengeDemoData.photoMediaId(userId: userId, week: week)
            do {
                if try await services.media.media(id: id, userId: userId) == nil {
                    guard let png = await drawn.png(week: week) else {
                        logger.warning("Demo photos not made: vips could not draw them")  // catalog-exempt: a log line
                        break
                    }
                    _ = try await upload.upload(png, announcedKind: .photo, id: id, userId: userId, logger: logger)
                }
                stored.insert(week)
            } catch {
                logger.warning("Demo photo not stored", metadata: ["week": "\(week)", "error": "\(error)"])  // catalog-exempt: a log line
                break
            }
        }
        return stored
    }

    /// The 17 pictograms are the same for every user: each is drawn once per process (a seeding then runs vips only
    /// for the media store's own processing of each photo).
    static let drawn = Drawings()

    actor Drawings {
        private var pngs: [Int: Data] = [:]

        func png(week: Int) async -> Data? {
            if let png = pngs[week] { return png }
            guard let png = await ChallengeDemoPhotos.render(week: week) else { return nil }
            pngs[week] = png
            return png
        }
    }

    static func render(week: Int) async -> Data? {
        guard let tool = ToolProcess.find("vips") else { return nil }
        return await ToolProcess.convert(tool: tool, inputs: [("photo.svg", Data(svg(week: week).utf8))], output: "photo.png", timeLimit: timeLimit) { folder in
            ["copy", folder.appendingPathComponent("photo.svg").path, folder.appendingPathComponent("photo.png").path]
        }
    }

    /// Deletes the demo's photos (every week's id; those never made are not there).
    static func delete(userId: UUID, services: AppServices) async throws {
        let ids = (1...ChallengeDemoData.weeks).map { ChallengeDemoData.photoMediaId(userId: userId, week: $0) }
        try await MediaReferences(media: services.media).deleteUnreferenced(ids, userId: userId, journal: services.journal)
    }
}
