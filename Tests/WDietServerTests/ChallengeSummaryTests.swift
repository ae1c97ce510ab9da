import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WDietCore
import WDietTestSupport
@testable import WDietServer

/// Issue 20 item 5: the summary PDF and share image, and the weight chart they share with the Progress screen.
@Suite("Challenge summary")
struct ChallengeSummaryTests {
    static let start = LocalDate(year: 2026, month: 11, day: 30)!
    static let challenge = Challenge(id: UUID(), startDate: start, startWeightKg: 90, goalWeightKg: 80, weightUnit: .kg,
                                     createdAt: Date(timeIntervalSince1970: 1_796_000_000))

    // MARK: - The chart (pure)

    /// 90 → 80 kg over 119 days, MATADOR from the first day: maintenance 0–13, diet 14–27, … (docs/challenge.md).
    /// In a 288 × 134 box with left 40, right 10, top 10, bottom 24, x = 40 + 2 × day and y = 10 + 10 × (90 − kg)
    /// (80–90 kg, gridlines every 2.5 kg): flat in every maintenance block, 2.5 kg down in every diet block.
    @Test("the goal pace is drawn flat in MATADOR maintenance blocks, straight without a cycle, through its corners only")
    func paceCorners() {
        let chart = ChallengeWeightChart(width: 288, height: 134)
        var data = ChallengeData(challenge: Self.challenge)
        data.weighIns = [1: ChallengeWeighIn(challengeId: Self.challenge.id, week: 1, kg: 90, loggedOn: Self.start, createdAt: Self.challenge.createdAt)]
        data.weights = [Self.start.adding(days: 9): 88.5]
        let today = Self.start.adding(days: 10)
        let matador = chart.geometry(ChallengeReport(data: data, today: today, matador: MatadorCycle(planStart: Self.start)))
        #expect(matador.low == 80 && matador.high == 90)
        #expect(matador.gridValues == [80, 82.5, 85, 87.5, 90])
        #expect(matador.pace.map { [$0.x, $0.y] } == [
            [40, 10], [68, 10], [96, 35], [124, 35], [152, 60], [180, 60], [208, 85], [236, 85], [264, 110], [278, 110],
        ])
        // Week 1's weigh-in on day 0, week 2's weight from the log on day 9 (88.5 kg).
        #expect(matador.weights.map { [$0.x, $0.y] } == [[40, 10], [58, 25]])
        let straight = chart.geometry(ChallengeReport(data: data, today: today, matador: nil))
        #expect(straight.pace.map { [$0.x, $0.y] } == [[40, 10], [278, 110]])
        let svg = chart.elements(ChallengeReport(data: data, today: today, matador: nil))
        #expect(svg.contains("class=\"cchart__pace\" d=\"M40 10 L278 110\""))
        #expect(svg.contains("stroke-dasharray=\"2 5\""))
    }

    @Test("a weigh-in logged after its week is drawn on that week's Sunday")
    func lateWeighInStaysInItsWeek() {
        var data = ChallengeData(challenge: Self.challenge)
        data.weighIns = [1: ChallengeWeighIn(challengeId: Self.challenge.id, week: 1, kg: 89, loggedOn: Self.start.adding(days: 10), createdAt: Self.challenge.createdAt)]
        let report = ChallengeReport(data: data, today: Self.start.adding(days: 10), matador: nil)
        #expect(report.weekWeights[1]?.date == Self.start.adding(days: 6))
    }

    @Test("without rsvg-convert the renderer says so (the route answers 503)")
    func toolMissing() async {
        await #expect(throws: ChallengeSummaryRenderer.Failure.toolMissing) {
            try await ChallengeSummaryRenderer.render(["<svg xmlns=\"http://www.w3.org/2000/svg\"/>"], as: .pdf, tool: "/nonexistent/rsvg-convert")
        }
    }

    // MARK: - Through the API

    static func at(_ day: Int) -> Date { Fixtures.utc("2026-11-30T11:00:00Z").addingTimeInterval(Double(day) * 86_400) }

    /// Four weeks and a day, from Monday 30 November 2026 (the profile's MATADOR plan starts the same day), 90 →
    /// 80 kg: nutrition typed every day but Sundays (skipped), Push on Monday, Wednesday and Friday, all three habits
    /// every day, the photo and the weigh-in every Monday (90.0, 89.3, 88.6, 87.9, 87.2 kg). Read on Tuesday
    /// 29 December (week 5; the session, 30 days long, made on the first day, still holds).
    /// Weeks 1–4: 50 × 6/7 + 20 × 3/7 + 15 + 10 + 5 = 81.43 → 81, green; week 5 so far: 50 × 1/7 + 20 × 1/7 +
    /// 15 × 3/21 + 10 + 5 = 27.14 → 27. Pace on Monday 28 December (day 28, 14 diet days behind it): 90 − 10 × 14/56
    /// = 87.5 kg expected, 87.2 kg weighed: 0.3 kg ahead.
    static func fiveWeeks(_ t: TestApp, _ client: any TestClientProtocol) async throws -> APISession {
        t.clock.set(at(0))
        let session = try await client.signInWithProfile(["planStartDate": "2026-11-30"])
        let started = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-11-30", "goalWeight": 80, "startWeight": 90])
        #expect(started.status == .created, "\(String(buffer: started.body))")
        for day in 0..<29 {
            t.clock.set(at(day))
            let date = start.adding(days: day).iso
            let nutrition: [String: Any] = day % 7 == 6 ? ["status": "skipped"] : ["kcal": 1_800, "protein": 140, "carbs": 180, "fat": 60]
            #expect(try await client.api(.put, "/api/v1/challenge/days/\(date)/nutrition", session, json: nutrition).status == .ok)
            if [0, 2, 4].contains(day % 7) {
                #expect(try await client.api(.put, "/api/v1/challenge/days/\(date)/workout", session, json: ["type": "push", "useTemplate": true]).status == .ok)
            }
            #expect(try await client.api(.put, "/api/v1/challenge/days/\(date)/habits", session, json: ["water": true, "steps": true, "sleep": true]).status == .ok)
            if day % 7 == 0 {
                let week = day / 7 + 1
                let mediaId = MediaAPITests.newId()
                let upload = try await MediaAPITests.put(client, mediaId, try await MediaFixtures.photo(width: 64, height: 64, metadata: false), type: "image/jpeg", session)
                #expect(upload.status == .created, "\(String(buffer: upload.body))")
                #expect(try await client.api(.put, "/api/v1/challenge/weeks/\(week)/photo", session, json: ["mediaId": mediaId]).status == .ok)
                let kg = 90 - 0.7 * Double(week - 1)
                #expect(try await client.api(.post, "/api/v1/challenge/weeks/\(week)/weigh-in", session, json: ["weight": kg]).status == .created)
            }
        }
        t.clock.set(at(29))
        return session
    }

    /// A poppler tool's standard output, waited for on a thread of its own (`OwnThread`).
    static func run(_ tool: String, _ arguments: [String]) async throws -> Data {
        try await OwnThread.run { try runBlocking(tool, arguments) }
    }

    private static func runBlocking(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    @Test("the summary PDF: two A4 pages whose text says the weeks, the weights against the pace, the scores and the insights; both photos printed", arguments: StoreBackend.allCases)
    func summaryPDF(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.at(0)) { t, client in
            let session = try await Self.fiveWeeks(t, client)
            let response = try await client.api(.get, "/api/v1/challenge/summary?format=pdf", session)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/pdf")
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"w-diet-challenge-2026-11-30.pdf\"")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-summary-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let pdf = folder.appendingPathComponent("summary.pdf")
            try Data(buffer: response.body).write(to: pdf)

            let info = String(decoding: try await Self.run("/usr/bin/pdfinfo", [pdf.path]), as: UTF8.self)
            #expect(info.contains("Pages:           2"), "\(info)")
            #expect(info.contains("595.276 x 841.89 pts (A4)"), "\(info)")
            let text = String(decoding: try await Self.run("/usr/bin/pdftotext", ["-layout", pdf.path, "-"]), as: UTF8.self)
            for expected in [
                "Your 17-Week Challenge", "30 Nov 2026 – 28 Mar 2027 · Week 5 of 17",
                "90.0 kg", "87.2 kg", "80.0 kg", "81/100",
                "87.2 kg on 28 Dec: 0.3 kg ahead of your goal pace (87.5 kg)",
                "Weekly compliance", "Week by week", "Week 1 · 30 Nov", "Week 17 · 22 Mar",
                "You've completed 13 workouts", "29 days of all your habits in a row", "You're 2.8 kg closer to your goal weight",
                "You're 0.3 kg ahead of your goal pace", "You've taken 5 weekly photos", "Your best week so far: Week 4, 81/100",
                "First and latest photo", "Week 1 · 30 Nov 2026", "Week 5 · 28 Dec 2026",
            ] {
                #expect(text.contains(expected), "missing \(expected) in:\n\(text)")
            }
            // The weeks table: week 2's line has its score, the weigh-in, the pace that Monday (maintenance: 90.0) and
            // its 6 nutrition and 3 workout days; week 5 so far 27.
            #expect(text.range(of: #"Week 2 · 7 Dec\s+81\s+89.3 kg\s+90.0 kg\s+6/7\s+3/7"#, options: .regularExpression) != nil, "\(text)")
            #expect(text.range(of: #"Week 4 · 21 Dec\s+81\s+87.9 kg\s+88.8 kg"#, options: .regularExpression) != nil, "\(text)")
            #expect(text.range(of: #"Week 5 · 28 Dec\s+27\s+87.2 kg\s+87.5 kg\s+1/7\s+1/7"#, options: .regularExpression) != nil, "\(text)")

            // Page 2 at 72 dpi (a pixel a point): the middle of each photo's frame is the picture (blue 128, little red),
            // not the frame's gray.
            let prefix = folder.appendingPathComponent("page").path
            _ = try await Self.run("/usr/bin/pdftoppm", ["-r", "72", "-f", "2", "-l", "2", pdf.path, prefix])
            let ppm = try Data(contentsOf: URL(fileURLWithPath: prefix + "-2.ppm"))
            for (x, y) in [(165, 593), (430, 593)] {
                let pixel = try Self.pixel(ppm, x: x, y: y)
                #expect(pixel.b > 100 && pixel.r < 80, "(\(x), \(y)) is \(pixel)")
            }
        }
    }

    @Test("the share image: a 1080 × 1350 PNG; a format other than pdf or png is 400; no challenge is 404")
    func shareImage() async throws {
        try await TestApp.test(.sqlite, clockStart: Self.at(0)) { t, client in
            let session = try await Self.fiveWeeks(t, client)
            let response = try await client.api(.get, "/api/v1/challenge/summary?format=png", session)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            let png = Data(buffer: response.body)
            #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            func int(_ offset: Int) -> Int { png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            #expect(int(16) == 1080 && int(20) == 1350)
            let gif = try await client.api(.get, "/api/v1/challenge/summary?format=gif", session)
            #expect(gif.status == .badRequest)
            #expect(try gif.errorDetail().fields?["format"] == "Choose pdf or png.")
            #expect(try await client.api(.delete, "/api/v1/challenge", session).status == .noContent)
            #expect(try await client.api(.get, "/api/v1/challenge/summary", session).status == .notFound)
        }
    }

    /// The RGB of a pixel of a binary PPM (P6, 8 bits).
    static func pixel(_ ppm: Data, x: Int, y: Int) throws -> (r: Int, g: Int, b: Int) {
        let bytes = [UInt8](ppm)
        var fields: [Int] = [], index = 2, current = ""
        while fields.count < 3 {
            let c = Character(UnicodeScalar(bytes[index]))
            if c.isNumber { current.append(c) } else if !current.isEmpty { fields.append(Int(current)!); current = "" }
            index += 1
        }
        let width = fields[0]
        let offset = index + (y * width + x) * 3
        return (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]))
    }
}
