import Foundation
import Synchronization
import WDietCore

/// A grayscale image, one byte per pixel, rows top to bottom.
struct GrayImage: Sendable {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// A binary PGM (P5, 8-bit), as `vips` writes it (comment lines allowed in the header).
    init?(pgm data: Data) {
        var index = data.startIndex
        var fields: [Int] = []
        func skipSpaceAndComments() {
            while index < data.endIndex {
                let byte = data[index]
                if byte == UInt8(ascii: "#") {
                    while index < data.endIndex, data[index] != 0x0A { index += 1 }
                } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                    index += 1
                } else {
                    return
                }
            }
        }
        guard data.count > 2, data[index] == UInt8(ascii: "P"), data[index + 1] == UInt8(ascii: "5") else { return nil }
        index += 2
        while fields.count < 3 {
            skipSpaceAndComments()
            var number = 0
            var digits = 0
            while index < data.endIndex, data[index] >= 0x30, data[index] <= 0x39 {
                number = number * 10 + Int(data[index] - 0x30)
                index += 1
                digits += 1
                if digits > 9 { return nil }
            }
            guard digits > 0 else { return nil }
            fields.append(number)
        }
        index += 1  // the single whitespace after maxval
        let (width, height, maxValue) = (fields[0], fields[1], fields[2])
        guard width > 0, height > 0, maxValue == 255, data.endIndex - index >= width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = [UInt8](data[index..<(index + width * height)])
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The part inside the rectangle (clipped to the image).
    func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> GrayImage {
        let left = max(0, min(width - 1, x)), top = max(0, min(height - 1, y))
        let right = max(left + 1, min(width, x + cropWidth)), bottom = max(top + 1, min(height, y + cropHeight))
        var out = [UInt8](repeating: 0, count: (right - left) * (bottom - top))
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for row in top..<bottom {
                    let from = row * width + left
                    let to = (row - top) * (right - left)
                    for column in 0..<(right - left) { target[to + column] = source[from + column] }
                }
            }
        }
        return GrayImage(width: right - left, height: bottom - top, pixels: out)
    }

    /// Scaled by `factor`: bilinear when enlarging, a box average when shrinking. Each column's source positions and
    /// weights are worked out once, not per pixel (on a 5-megapixel photo the per-pixel arithmetic was a tenth of a
    /// scan's CPU); the pixels are those of the plain per-pixel formulas (`GrayImageScalingTests`).
    func scaled(by factor: Double) -> GrayImage {
        let newWidth = max(1, Int((Double(width) * factor).rounded())), newHeight = max(1, Int((Double(height) * factor).rounded()))
        if newWidth == width && newHeight == height { return self }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        let width = width, height = height
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                if factor >= 1 {
                    var left = [Int](repeating: 0, count: newWidth), right = left, weight = [Double](repeating: 0, count: newWidth)
                    for column in 0..<newWidth {
                        let fx = max(0, (Double(column) + 0.5) * sx - 0.5)
                        left[column] = min(width - 1, Int(fx))
                        right[column] = min(width - 1, left[column] + 1)
                        weight[column] = fx - Double(left[column])
                    }
                    for row in 0..<newHeight {
                        let fy = max(0, (Double(row) + 0.5) * sy - 0.5)
                        let y0 = min(height - 1, Int(fy)), y1 = min(height - 1, y0 + 1)
                        let wy = fy - Double(y0)
                        let upper = y0 * width, lower = y1 * width, base = row * newWidth
                        for column in 0..<newWidth {
                            let x0 = left[column], x1 = right[column], wx = weight[column]
                            let top = Double(source[upper + x0]) * (1 - wx) + Double(source[upper + x1]) * wx
                            let bottom = Double(source[lower + x0]) * (1 - wx) + Double(source[lower + x1]) * wx
                            // Rounded half away from zero like `rounded()` (a library call per pixel), for values ≥ 0:
                            // n - value is exact here, so a sum that rounded up past value + 0.5 is caught.
                            let value = top * (1 - wy) + bottom * wy
                            var nearest = Int(value + 0.5)
                            if Double(nearest) - value > 0.5 { nearest -= 1 }
                            target[base + column] = UInt8(max(0, min(255, nearest)))
                        }
                    }
                } else {
                    // Per output row: the source rows' sums per column, then each output column's box of them.
                    var first = [Int](repeating: 0, count: newWidth), end = first
                    for column in 0..<newWidth {
                        first[column] = Int(Double(column) * sx)
                        end[column] = max(first[column] + 1, min(width, Int(Double(column + 1) * sx)))
                    }
                    var sums = [Int](repeating: 0, count: width)
                    for row in 0..<newHeight {
                        let y0 = Int(Double(row) * sy), y1 = max(y0 + 1, min(height, Int(Double(row + 1) * sy)))
                        for x in 0..<width { sums[x] = 0 }
                        for y in y0..<y1 {
                            let base = y * width
                            for x in 0..<width { sums[x] &+= Int(source[base + x]) }
                        }
                        let base = row * newWidth
                        for column in 0..<newWidth {
                            var sum = 0
                            for x in first[column]..<end[column] { sum &+= sums[x] }
                            target[base + column] = UInt8(sum / ((y1 - y0) * (end[column] - first[column])))
                        }
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// Contrast stretched so that the darkest 1 % is black and the lightest 1 % white; light text on a dark ground
    /// (the median darker than mid-grey) is inverted to dark on light, as Tesseract reads best.
    func normalised(invertIfDark: Bool = true) -> GrayImage {
        var histogram = [Int](repeating: 0, count: 256)
        for pixel in pixels { histogram[Int(pixel)] += 1 }
        let total = pixels.count
        func percentile(_ p: Double) -> Int {
            var running = 0
            for value in 0..<256 {
                running += histogram[value]
                if Double(running) >= p * Double(total) { return value }
            }
            return 255
        }
        let low = percentile(0.01), high = max(percentile(0.99), low + 1), median = percentile(0.5)
        let invert = invertIfDark && median < 110
        var table = [UInt8](repeating: 0, count: 256)
        for value in 0..<256 {
            let stretched = max(0, min(255, (value - low) * 255 / (high - low)))
            table[value] = UInt8(invert ? 255 - stretched : stretched)
        }
        return GrayImage(width: width, height: height, pixels: pixels.map { table[Int($0)] })
    }

    func inverted() -> GrayImage {
        GrayImage(width: width, height: height, pixels: pixels.map { 255 - $0 })
    }
}

extension LabelCrop {
    /// A crop vips and `GrayImage.cropped` can take from a picture of this size: not empty, and starting inside it
    /// (a rectangle that runs past the edge is cut at the edge).
    func startsInside(width: Int, height: Int) -> Bool {
        self.width > 0 && self.height > 0 && x >= 0 && y >= 0 && x < width && y < height
    }
}

/// Whether a vips run loads vips' plugin modules.
enum VipsModules: Sendable { case installed, none }

/// libvips' command-line tools (Debian `libvips-tools`), run as child processes: the photo decoded, turned upright
/// by its EXIF orientation, cropped when the client sent a rectangle, and made grayscale, as a PGM Tesseract reads.
struct VipsTools: Sendable {
    var timeLimit: Duration
    var maxPixels: Int
    /// Every photo through the general steps (autorot, extract_area, colourspace, extract_band), for tests that
    /// compare them with the short way.
    var generalStepsOnly = false
    var searchPath: [String] = ProcessInfo.processInfo.environment["PATH"].map { $0.split(separator: ":").map(String.init) }
        ?? ["/usr/local/bin", "/usr/bin", "/bin"]

    func find(_ name: String) -> String? {
        for folder in searchPath where !folder.isEmpty {
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    var isAvailable: Bool { find("vips") != nil && find("vipsheader") != nil }

    /// The photo upright and grayscale (crop in upright pixels, when given).
    func grayscale(_ image: Data, crop: LabelCrop?) throws(LabelScanError) -> GrayImage {
        guard let vips = find("vips"), let header = find("vipsheader") else {
            throw .ocrUnavailable(reason: "the vips tools are not installed (Debian: apt-get install libvips-tools)")
        }
        let folder: URL
        do {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-label-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .ocrUnavailable(reason: "no private temporary folder")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("photo")
        guard (try? image.write(to: input)) != nil else { throw .ocrUnavailable(reason: "the photo could not be written to a temporary file") }

        // vips loads its plugin modules (ImageMagick, poppler, OpenSlide, JPEG XL, HEIF) at every start: half of a
        // run's CPU, for loaders the upload may not use anyway (VIPS_BLOCK_UNTRUSTED). Only HEIF needs one: other
        // photos run with VIPSHOME at the private folder, which holds no modules.
        let modules: VipsModules = Self.isISOMediaFile(image) ? .installed : .none
        // The usual phone photo, an 8-bit JPEG in colour or grey, is told from its frame header here; anything else
        // by `vipsheader` (a process start saved per scan: some 30–40 ms of CPU).
        let size: String
        if let line = Self.jpegHeaderLine(image) {
            size = line
        } else {
            size = try run(header, [input.path], in: folder, untrusted: true, modules: modules)
        }
        guard let (width, height) = Self.size(fromHeader: size) else { throw .notAnImage }
        guard width * height <= maxPixels else { throw .tooLarge }

        // The usual photo (8-bit sRGB or grey without alpha) goes grey whole, and a crop is cut from the grey
        // pixels here (grey is per pixel, so cutting before or after gives the same pixels). A JPEG is turned upright
        // by its loader (`autorotate`) in the same run; other formats are made grey first, then turned upright
        // straight into the PGM (vips keeps the orientation tag through the grey step).
        if !generalStepsOnly, Self.isEightBitRGBOrGray(header: size) {
            let pgm = folder.appendingPathComponent("upright.pgm").path
            if Self.loader(fromHeader: size) == "jpegload" {
                _ = try run(vips, ["colourspace", input.path + "[autorotate=true]", pgm, "b-w"], in: folder, untrusted: true, modules: modules)
            } else {
                let grayFirst = folder.appendingPathComponent("gray-first.v").path
                _ = try run(vips, ["colourspace", input.path, grayFirst, "b-w"], in: folder, untrusted: true, modules: modules)
                _ = try run(vips, ["autorot", grayFirst, pgm], in: folder, modules: modules)
            }
            if let image = Self.readPGM(atPath: pgm, maxPixels: maxPixels) {
                guard let crop else { return image }
                guard crop.startsInside(width: image.width, height: image.height) else { throw .badCrop }
                return image.cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
            }
        }
        let upright = folder.appendingPathComponent("upright.v").path
        _ = try run(vips, ["autorot", input.path, upright], in: folder, untrusted: true, modules: modules)
        var current = upright
        if let crop {
            let rotated = try run(header, [upright], in: folder, modules: modules)
            guard let (uprightWidth, uprightHeight) = Self.size(fromHeader: rotated) else { throw .notAnImage }
            guard crop.startsInside(width: uprightWidth, height: uprightHeight) else { throw .badCrop }
            let cropped = folder.appendingPathComponent("cropped.v").path
            _ = try run(vips, [
                "extract_area", current, cropped, "\(crop.x)", "\(crop.y)",
                "\(min(crop.width, uprightWidth - crop.x))", "\(min(crop.height, uprightHeight - crop.y))",
            ], in: folder, modules: modules)
            current = cropped
        }
        let gray = folder.appendingPathComponent("gray.v").path
        _ = try run(vips, ["colourspace", current, gray, "b-w"], in: folder, modules: modules)
        let pgm = folder.appendingPathComponent("gray.pgm").path
        _ = try run(vips, ["extract_band", gray, pgm, "0"], in: folder, modules: modules)
        guard let image = Self.readPGM(atPath: pgm, maxPixels: maxPixels) else { throw .notAnImage }
        return image
    }

    /// "photo: 1200x1600 uchar, 3 bands, srgb, jpegload": 8-bit sRGB or grey without alpha (one band once grey).
    static func isEightBitRGBOrGray(header: String) -> Bool {
        guard let colon = header.lastIndex(of: ":") else { return false }
        let parts = header[header.index(after: colon)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.count >= 3, parts[0].hasSuffix(" uchar") else { return false }
        return ["1 band", "3 bands"].contains(parts[1]) && ["srgb", "b-w"].contains(parts[2])
    }

    /// For an 8-bit baseline or progressive JPEG in grey or colour, the line `vipsheader` prints for it
    /// ("photo: 4032x3024 uchar, 3 bands, srgb, jpegload": libjpeg gives colour JPEGs as sRGB, grey ones as b-w);
    /// nil for anything else, which `vipsheader` is asked about.
    static func jpegHeaderLine(_ image: Data) -> String? {
        guard let frame = JPEGFrame.read(image), frame.isEightBitGrayOrColourHuffman else { return nil }
        let bands = frame.components == 1 ? "1 band, b-w" : "3 bands, srgb"
        return "photo: \(frame.width)x\(frame.height) uchar, \(bands), jpegload"
    }

    /// The loader vipsheader names last ("jpegload").
    static func loader(fromHeader header: String) -> String? {
        guard let colon = header.lastIndex(of: ":") else { return nil }
        return header[header.index(after: colon)...].split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// HEIC, HEIF and AVIF are ISO media files ("ftyp" box first): vips reads them through its HEIF module.
    static func isISOMediaFile(_ data: Data) -> Bool {
        data.count >= 12 && data.dropFirst(4).prefix(4).elementsEqual("ftyp".utf8)
    }

    /// The PGM a tool wrote, unless it holds more pixels than allowed (checked on the file's size before reading it).
    static func readPGM(atPath path: String, maxPixels: Int) -> GrayImage? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size <= maxPixels + 4_096,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return GrayImage(pgm: data)
    }

    static func size(fromHeader header: String) -> (Int, Int)? {
        // "photo: 1200x1600 uchar, 3 bands, srgb, jpegload"
        guard let colon = header.lastIndex(of: ":") else { return nil }
        let rest = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let dimensions = rest.split(separator: " ").first?.split(separator: "x") ?? []
        guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The environment a tool runs with: vips' well-tested loaders only when it reads the upload, temporary files in
    /// `folder`, `VIPSHOME` at `folder` (no modules) unless the photo needs one, and **one worker thread**
    /// (`VIPS_CONCURRENCY=1`, whatever the server inherited): by default vips starts a worker per core, and a scan's
    /// `vips colourspace` then had two workers busy at once (perf, 2026-11-27), so a scan took both cores of this
    /// machine for a moment — the core a meal save needed. Tesseract keeps to one thread too (`OMP_THREAD_LIMIT`).
    static func toolEnvironment(_ base: [String: String], untrusted: Bool, modules: VipsModules, folder: URL) -> [String: String] {
        var environment = base
        environment["VIPS_BLOCK_UNTRUSTED"] = untrusted ? "1" : nil
        environment["VIPS_CONCURRENCY"] = "1"
        environment["TMPDIR"] = folder.path
        if modules == .none { environment["VIPSHOME"] = folder.path }
        return environment
    }

    /// Runs one tool; a failure to decode is `.notAnImage`, running out of time `.timedOut`.
    /// `untrusted`: the tool reads the upload, so only vips' well-tested loaders may (VIPS_BLOCK_UNTRUSTED); the
    /// later steps read our own `.v` files, whose loader vips counts as untrusted.
    /// `modules: .none` starts vips without its plugin modules (VIPSHOME at `folder`, which has none).
    func run(_ tool: String, _ arguments: [String], in folder: URL, untrusted: Bool = false, modules: VipsModules) throws(LabelScanError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = Self.toolEnvironment(ProcessInfo.processInfo.environment, untrusted: untrusted, modules: modules, folder: folder)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw .ocrUnavailable(reason: "\((tool as NSString).lastPathComponent) could not be started")
        }
        // The tools print a line at most (vipsheader), far below a pipe's buffer: wait first, then read.
        let (seconds, attoseconds) = timeLimit.components
        let limit = Double(seconds) + Double(attoseconds) / 1e18
        if finished.wait(timeout: .now() + limit) == .timedOut {
            // SIGKILL, not `terminate()`'s SIGTERM: the tool inherits the starting thread's blocked signals, and a
            // scan thread made from the cooperative pool's blocks SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            throw .timedOut
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            throw .notAnImage
        }
        return String(decoding: data, as: UTF8.self)
    }
}
