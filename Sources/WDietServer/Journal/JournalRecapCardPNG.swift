import Foundation

/// The recap's share card as a PNG, drawn from its SVG by libvips' command-line tool (`vips copy card.svg card.png`,
/// its SVG loader is librsvg's): 1080 × 1080, for apps that do not take SVG. The SVG is the server's own (every text
/// escaped), so vips' "untrusted" SVG loader is fine here. Without `vips` on the machine the card stays SVG only
/// (nil; the route answers 503).
enum JournalRecapCardPNG {
    static let timeLimit: Duration = .seconds(10)

    static func render(svg: String) async -> Data? {
        guard let tool = ToolProcess.find("vips") else { return nil }
        return await ToolProcess.convert(tool: tool, inputs: [("card.svg", Data(svg.utf8))], output: "card.png", timeLimit: timeLimit) { folder in
            ["copy", folder.appendingPathComponent("card.svg").path, folder.appendingPathComponent("card.png").path]
        }
    }
}
