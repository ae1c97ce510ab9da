import Foundation
import Testing
import WDietTestSupport

/// Photos made at test time with libvips' and exiftool's command-line tools (Debian `libvips-tools`,
/// `libimage-exiftool-perl`, installed by scripts/test.sh), so no binary is committed: a picture of a given size and
/// format, with GPS, camera, comment and XMP metadata and an EXIF orientation written into it.
enum MediaFixtures {
    enum Failure: Error, CustomStringConvertible {
        case toolFailed(String, String)
        var description: String {
            switch self {
            case .toolFailed(let command, let output): "\(command) failed: \(output) (are libvips-tools and libimage-exiftool-perl installed?)"
            }
        }
    }

    /// Runs a tool found on PATH and answers its standard output; a failure throws with what it said. It waits on a
    /// thread of its own (`OwnThread`).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        try await OwnThread.run { try runBlocking(tool, arguments) }
    }

    private static func runBlocking(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw Failure.toolFailed(([tool] + arguments).joined(separator: " "), text) }
        return text
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-media-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A `width`×`height` picture (a colour gradient, so the JPEG is not trivially small) as `format` (jpg, png,
    /// webp, heic). JPEGs get GPS (52.52 N, 13.40 E), `Make`, a comment and XMP, and `orientation` (EXIF 1–8).
    static func photo(width: Int, height: Int, format: String = "jpg", orientation: Int? = nil, metadata: Bool = true) async throws -> Data {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.v").path
        let file = folder.appendingPathComponent("photo.\(format)").path
        // x and y ramps as red and green, a constant blue: an RGB picture whose orientation shows.
        try await run("vips", ["xyz", folder.appendingPathComponent("xy.v").path, "\(width)", "\(height)"])
        try await run("vips", ["linear", folder.appendingPathComponent("xy.v").path, base, "0.5", "0", "--uchar"])
        try await run("vips", ["bandjoin_const", base, folder.appendingPathComponent("rgb.v").path, "128"])
        try await run("vips", ["copy", folder.appendingPathComponent("rgb.v").path, file + (format == "jpg" ? "[Q=90]" : "")])
        if metadata, format == "jpg" {
            var tags = [
                "-q", "-overwrite_original", "-GPSLatitude=52.52", "-GPSLatitudeRef=N", "-GPSLongitude=13.40",
                "-GPSLongitudeRef=E", "-Make=TestCam", "-Comment=secret comment", "-XMP:Description=xmp secret",
            ]
            if let orientation { tags.append("-Orientation#=\(orientation)") }
            try await run("exiftool", tags + [file])
        }
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }

    /// exiftool's metadata of `data` beyond the file's own structure: EXIF, GPS, XMP, IPTC, ICC profile, comments
    /// and maker notes, one `Group:Tag` per line ("" when there is none).
    static func metadata(of data: Data) async throws -> String {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("check.jpg")
        try data.write(to: file)
        return try await run("exiftool", [
            "-s", "-G", "-EXIF:all", "-GPS:all", "-XMP:all", "-IPTC:all", "-ICC_Profile:all", "-MakerNotes:all", "-Comment",
            "-Photoshop:all", file.path,
        ])
    }
}
