import Foundation
import Testing
@testable import WDietLabelScan

/// The environment a label scan's vips tools run with: one worker thread, so that a scan never takes more than one core
/// (docs/label-scan.md "The scan queue").
@Suite("Label scan: the vips tools' environment")
struct VipsToolEnvironmentTests {
    @Test("one worker thread whatever the server inherited; untrusted loaders blocked only for the upload; no modules unless needed")
    func environment() {
        let folder = URL(fileURLWithPath: "/tmp/wdiet-label-x")
        let inherited = ["PATH": "/usr/bin", "VIPS_CONCURRENCY": "4", "VIPS_BLOCK_UNTRUSTED": "1", "VIPSHOME": "/opt/vips"]
        let upload = VipsTools.toolEnvironment(inherited, untrusted: true, modules: .none, folder: folder)
        #expect(upload["VIPS_CONCURRENCY"] == "1")
        #expect(upload["VIPS_BLOCK_UNTRUSTED"] == "1")
        #expect(upload["VIPSHOME"] == "/tmp/wdiet-label-x")
        #expect(upload["TMPDIR"] == "/tmp/wdiet-label-x")
        #expect(upload["PATH"] == "/usr/bin")
        // A later step reads the scan's own `.v` file, whose loader vips counts as untrusted: an inherited block must
        // not reach it. A HEIC keeps vips' own module folder.
        let ownFile = VipsTools.toolEnvironment(inherited, untrusted: false, modules: .installed, folder: folder)
        #expect(ownFile["VIPS_CONCURRENCY"] == "1")
        #expect(ownFile["VIPS_BLOCK_UNTRUSTED"] == nil)
        #expect(ownFile["VIPSHOME"] == "/opt/vips")
        #expect(VipsTools.toolEnvironment([:], untrusted: true, modules: .installed, folder: folder)["VIPS_CONCURRENCY"] == "1")
    }

    @Test("every vips run of a scan gets one worker thread (a stand-in `vips` and `vipsheader` note their environment)")
    func toolsRunWithOneThread() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-label-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        var tools = VipsTools(timeLimit: .seconds(60), maxPixels: 100_000_000)
        // Without the vips tools this test fails, never passes empty (scripts/test.sh installs them).
        let realVips = try #require(tools.find("vips")), realHeader = try #require(tools.find("vipsheader"))
        let notes = folder.appendingPathComponent("notes")
        for (name, real) in [("vips", realVips), ("vipsheader", realHeader)] {
            let script = "#!/bin/sh\necho \"\(name) ${VIPS_CONCURRENCY:-unset}\" >> '\(notes.path)'\nexec '\(real)' \"$@\"\n"
            let wrapper = folder.appendingPathComponent(name)
            try script.write(to: wrapper, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        }
        tools.searchPath = [folder.path] + tools.searchPath
        let photo = try Data(contentsOf: LabelScannerTests.devFolder.appendingPathComponent("jofuelo-ex2.jpg"))  // 384×512
        // Both ways: the short one (a JPEG: its frame header read here, one vips run) and the general steps (autorot,
        // vipsheader for the crop, extract_area, colourspace, extract_band).
        let short = try tools.grayscale(photo, crop: nil)
        var general = tools
        general.generalStepsOnly = true
        let long = try general.grayscale(photo, crop: LabelCrop(x: 10, y: 20, width: 100, height: 200))
        #expect((short.width, short.height) == (384, 512))
        #expect((long.width, long.height) == (100, 200))
        let runs = try String(contentsOf: notes, encoding: .utf8).split(separator: "\n")
        // vips colourspace; autorot + vipsheader + extract_area + colourspace + extract_band.
        #expect(runs.count == 6)
        #expect(runs.filter { $0.hasPrefix("vipsheader ") }.count == 1)
        #expect(runs.allSatisfy { $0.hasSuffix(" 1") })
    }
}
