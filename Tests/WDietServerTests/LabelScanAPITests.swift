import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WDietCore
import WDietLabelScan
import WDietTestSupport

@testable import WDietServer

/// A reader that answers what it is told, records what it was given, and (when gated) holds each scan until the test
/// lets it go: the API's answers and the queue's lines without Tesseract.
final class FakeLabelReader: LabelImageReader, @unchecked Sendable {
    let maxBytes: Int
    private let lock = NSLock()
    private var answer: Result<LabelScanResult, LabelScanError>
    private var received: [(Data, LabelCrop?)] = []
    private var gate: [CheckedContinuation<Void, Never>] = []
    private var started = 0
    let gated: Bool
    let isAvailable: Bool

    init(maxBytes: Int = 15_000_000, answer: Result<LabelScanResult, LabelScanError>, gated: Bool = false, isAvailable: Bool = true) {
        self.maxBytes = maxBytes
        self.isAvailable = isAvailable
        self.answer = answer
        self.gated = gated
    }

    var calls: [(Data, LabelCrop?)] { lock.withLock { received } }
    var startedCount: Int { lock.withLock { started } }

    func read(image: Data, crop: LabelCrop?) async throws(LabelScanError) -> LabelScanResult {
        lock.withLock {
            received.append((image, crop))
            started += 1
        }
        if gated {
            await withCheckedContinuation { continuation in lock.withLock { gate.append(continuation) } }
        }
        return try lock.withLock { answer }.get()
    }

    /// Lets every held scan finish.
    func releaseAll() {
        let held = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            defer { gate = [] }
            return gate
        }
        held.forEach { $0.resume() }
    }
}

enum LabelFixtures {
    /// The first bytes of a JPEG (the API checks the bytes before the reader sees them).
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + Data("JFIF".utf8) + Data(repeating: 0x42, count: 500)

    /// A US panel: per serving (2/3 cup, 55 g) 230 kcal, fat 8 g, carbohydrate 37 g, protein 3 g read with
    /// confidence; fiber read at 0.4 (below the bar).
    static var usReading: LabelReading {
        LabelReading(
            columns: [
                LabelColumn(basis: .perServing, servingText: "2/3 cup (55g)", servingGrams: 55, values: [
                    .energyKcal: LabelFieldReading(value: 230, unit: .kcal, confidence: 0.97),
                    .fat: LabelFieldReading(value: 8, unit: .g, confidence: 0.95),
                    .carbohydrate: LabelFieldReading(value: 37, unit: .g, confidence: 0.93),
                    .protein: LabelFieldReading(value: 3, unit: .g, confidence: 0.9),
                    .fiber: LabelFieldReading(value: 4, unit: .g, confidence: 0.4),
                    .sugars: LabelFieldReading(value: 1, unit: .g, confidence: 0.9, lessThan: true),
                ]),
            ],
            panelFound: true, confidence: 0.9234)
    }

    static func result(_ reading: LabelReading) -> LabelScanResult {
        var timings = LabelScanTimings()
        timings.preprocess = 0.3104
        timings.panel = 0.12
        timings.ocr = 0.6405
        timings.parse = 0.003
        timings.total = 1.0739
        return LabelScanResult(reading: reading, timings: timings)
    }
}

@Suite("API: reading a nutrition label (issue 19)")
struct LabelScanAPITests {
    static func post(
        _ client: any TestClientProtocol, _ data: Data, type: String? = "image/jpeg", query: String = "", _ session: APISession?
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let session { headers[.authorization] = "Bearer \(session.token)" }
        if let type { headers[.contentType] = type }
        return try await client.execute(uri: "/api/v1/labels/read\(query)", method: .post, headers: headers, body: ByteBuffer(data: data))
    }

    static func services(_ reader: FakeLabelReader, queue: WorkLine = WorkLine(maxRunning: 1, maxWaiting: 4)) throws -> AppServices {
        var services = try TestApp().services
        services.labelScan = LabelScanService(reader: reader, queue: queue)
        return services
    }

    @Test("a photo and a crop: 200 with every field, its confidence and whether it is confident, the suggested basis and the stage times; the reader got the bytes and the crop")
    func reading() async throws {
        let reader = FakeLabelReader(answer: .success(LabelFixtures.result(LabelFixtures.usReading)))
        try await MediaAPITests.withApp(try Self.services(reader)) { client in
            let ana = try await client.signInAsGuest()
            let response = try await Self.post(client, LabelFixtures.jpeg, query: "?crop=10,20,300,400", ana)
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.headers[.cacheControl] == "private, no-store")
            let json = try response.object()
            #expect(json["panelFound"] as? Bool == true)
            #expect(number(json["confidence"]) == 0.923)
            #expect(number(json["threshold"]) == 0.85)
            #expect(json["needsManualEntry"] as? Bool == false)
            #expect(json["suggestedBasis"] as? String == "perServing")
            let columns = try #require(json["columns"] as? [[String: Any]])
            #expect(columns.count == 1)
            #expect(columns[0]["basis"] as? String == "perServing")
            #expect(columns[0]["servingText"] as? String == "2/3 cup (55g)")
            #expect(number(columns[0]["servingGrams"]) == 55)
            let fields = try #require(columns[0]["fields"] as? [String: [String: Any]])
            #expect(Set(fields.keys) == ["energyKcal", "fat", "carbohydrate", "protein", "fiber", "sugars"])
            #expect(number(fields["energyKcal"]?["value"]) == 230)
            #expect(fields["energyKcal"]?["unit"] as? String == "kcal")
            #expect(number(fields["energyKcal"]?["confidence"]) == 0.97)
            #expect(fields["energyKcal"]?["confident"] as? Bool == true)
            #expect(number(fields["fiber"]?["value"]) == 4)
            #expect(fields["fiber"]?["confident"] as? Bool == false)
            #expect(fields["sugars"]?["lessThan"] as? Bool == true)
            let timings = try #require(json["timings"] as? [String: Any])
            #expect(number(timings["preprocessMs"]) == 310)
            #expect(number(timings["ocrMs"]) == 641)
            #expect(number(timings["totalMs"]) == 1_074)
            #expect(number(timings["waitMs"]).map { $0 >= 0 && $0 < 5_000 } == true)

            let calls = reader.calls
            #expect(calls.count == 1)
            #expect(calls.first?.0 == LabelFixtures.jpeg)
            #expect(calls.first?.1 == LabelCrop(x: 10, y: 20, width: 300, height: 400))
            // Without a crop the reader looks for the panel itself.
            #expect(try await Self.post(client, LabelFixtures.jpeg, type: "application/octet-stream", ana).status == .ok)
            #expect(reader.calls.last?.1 == nil)
            // No Content-Type at all: the bytes decide.
            #expect(try await Self.post(client, LabelFixtures.jpeg, type: nil, ana).status == .ok)
        }
    }

    @Test("a photo without a nutrition panel is a reading: 200, panelFound false, needsManualEntry true, no columns")
    func noPanel() async throws {
        let reader = FakeLabelReader(answer: .success(LabelFixtures.result(.noPanel)))
        try await MediaAPITests.withApp(try Self.services(reader)) { client in
            let ana = try await client.signInAsGuest()
            let response = try await Self.post(client, LabelFixtures.jpeg, ana)
            #expect(response.status == .ok)
            let json = try response.object()
            #expect(json["panelFound"] as? Bool == false)
            #expect(json["needsManualEntry"] as? Bool == true)
            #expect((json["columns"] as? [Any])?.isEmpty == true)
            #expect(json["suggestedBasis"] == nil || json["suggestedBasis"] is NSNull)
        }
    }

    @Test("a reading below the bar (0.6) needs manual entry; an EU label suggests the column with more confident fields")
    func lowConfidenceAndBasis() {
        var reading = LabelFixtures.usReading
        reading.confidence = 0.6
        #expect(LabelReadingJSON.needsManualEntry(reading))
        #expect(!LabelReadingJSON.needsManualEntry(LabelFixtures.usReading))
        // Per 100 g: kJ, fat, carbohydrate, protein confident (score 5); per portion only energy (score 2).
        let eu = LabelReading(columns: [
            LabelColumn(basis: .perServing, servingText: "1 Riegel (40 g)", servingGrams: 40, values: [
                .energyKcal: LabelFieldReading(value: 180, unit: .kcal, confidence: 0.9),
                .fat: LabelFieldReading(value: 7, unit: .g, confidence: 0.5),
            ]),
            LabelColumn(basis: .per100g, values: [
                .energyKJ: LabelFieldReading(value: 1_880, unit: .kJ, confidence: 0.95),
                .fat: LabelFieldReading(value: 17.5, unit: .g, confidence: 0.95),
                .carbohydrate: LabelFieldReading(value: 60, unit: .g, confidence: 0.9),
                .protein: LabelFieldReading(value: 6, unit: .g, confidence: 0.9),
            ]),
        ], panelFound: true, confidence: 0.9)
        #expect(LabelReadingJSON.suggestedBasis(eu) == .per100g)
        // A tie goes to per serving.
        let tie = LabelReading(columns: [
            LabelColumn(basis: .per100g, values: [.energyKcal: LabelFieldReading(value: 450, unit: .kcal, confidence: 0.9)]),
            LabelColumn(basis: .perServing, values: [.energyKcal: LabelFieldReading(value: 180, unit: .kcal, confidence: 0.9)]),
        ], panelFound: true, confidence: 0.9)
        #expect(LabelReadingJSON.suggestedBasis(tie) == .perServing)
    }

    @Test("bad input is a 4xx that says what to do, never a 5xx: not a photo, a wrong type, no body, too large, a malformed crop, a crop outside the photo, too many pixels")
    func badInput() async throws {
        let reader = FakeLabelReader(maxBytes: 2_000, answer: .success(LabelFixtures.result(LabelFixtures.usReading)))
        try await MediaAPITests.withApp(try Self.services(reader)) { client in
            let ana = try await client.signInAsGuest()
            let cases: [(Data, String?, String, HTTPResponse.Status, String)] = [
                (Data("hello, not a photo".utf8), "image/jpeg", "", .unsupportedMediaType, "not_an_image"),
                (Data("%PDF-1.4 a document".utf8), nil, "", .unsupportedMediaType, "not_an_image"),
                (LabelFixtures.jpeg, "application/json", "", .unsupportedMediaType, "not_an_image"),
                (Data(), "image/jpeg", "", .badRequest, "bad_request"),
                (LabelFixtures.jpeg + Data(count: 2_000), "image/jpeg", "", .contentTooLarge, "too_large"),
                (LabelFixtures.jpeg, "image/jpeg", "?crop=1,2,3", .badRequest, "bad_request"),
                (LabelFixtures.jpeg, "image/jpeg", "?crop=0,0,0,10", .badRequest, "bad_request"),
                (LabelFixtures.jpeg, "image/jpeg", "?crop=a,b,c,d", .badRequest, "bad_request"),
            ]
            for (data, type, query, status, code) in cases {
                let response = try await Self.post(client, data, type: type, query: query, ana)
                #expect(response.status == status, "\(type ?? "-") \(query): \(response.text)")
                #expect(try response.errorDetail().code == code)
            }
            let large = try await Self.post(client, LabelFixtures.jpeg + Data(count: 2_000), ana)
            #expect(try large.errorDetail().message == "This photo is larger than 1 MB. Take a new photo of the label, or enter the meal by hand.")
            let notPhoto = try await Self.post(client, Data("hello".utf8), ana)
            #expect(try notPhoto.errorDetail().message == "This file is not a photo w-diet can read (JPEG, PNG, WebP or HEIC). Take a photo of the label, or enter the meal by hand.")
            let crop = try await Self.post(client, LabelFixtures.jpeg, query: "?crop=1,2,3", ana)
            #expect(try crop.errorDetail().fields == ["crop": "The frame must be four whole numbers: x,y,width,height."])
            // None of them reached the reader.
            #expect(reader.calls.isEmpty)
        }
        // What the reader itself refuses.
        let refusals: [(LabelScanError, HTTPResponse.Status, String)] = [
            (.badCrop, .unprocessableContent, "invalid"),
            (.notAnImage, .unsupportedMediaType, "not_an_image"),
            (.tooLarge, .contentTooLarge, "too_many_pixels"),
            (.timedOut, .serviceUnavailable, "label_scan_busy"),
            (.ocrUnavailable(reason: "libtesseract.so.5 not found"), .serviceUnavailable, "label_scan_unavailable"),
        ]
        for (error, status, code) in refusals {
            let failing = FakeLabelReader(answer: .failure(error))
            try await MediaAPITests.withApp(try Self.services(failing)) { client in
                let ana = try await client.signInAsGuest()
                let response = try await Self.post(client, LabelFixtures.jpeg, query: "?crop=0,0,50,50", ana)
                #expect(response.status == status, "\(error)")
                let detail = try response.errorDetail()
                #expect(detail.code == code)
                // Nothing internal in the message: no library name, no path.
                #expect(!detail.message.contains("libtesseract") && !detail.message.contains("/"))
                if code == "invalid" { #expect(detail.fields == ["crop": "The frame lies outside the photo. Frame the label again."]) }
                if error == .timedOut { #expect(response.headers[.retryAfter] == "5") }
            }
        }
    }

    @Test("Log Meal offers Scan Label (the button and its panel) only where this server can read labels", arguments: [true, false])
    func logMealOffersScanOnlyWhereAvailable(_ available: Bool) async throws {
        let reader = FakeLabelReader(answer: .success(LabelFixtures.result(LabelFixtures.usReading)), isAvailable: available)
        try await MediaAPITests.withApp(try Self.services(reader)) { client in
            let user = try await client.mealWebUser()
            let page = try await client.mealPage("/meals/new", user)
            #expect(page.status == .ok)
            let html = page.text
            // Search and manual entry are there either way; without Tesseract or vips, tapping Scan Label could only
            // end in "unavailable", so neither the button nor the panel's template is on the page.
            #expect(html.contains(#"id="mode-manual""#))
            #expect(html.contains(#"id="mode-scan""#) == available)
            #expect(html.contains(#"id="scan-panel-template""#) == available)
        }
    }

    @Test("signed out: 401")
    func signedOut() async throws {
        let reader = FakeLabelReader(answer: .success(LabelFixtures.result(LabelFixtures.usReading)))
        try await MediaAPITests.withApp(try Self.services(reader)) { client in
            let response = try await Self.post(client, LabelFixtures.jpeg, nil)
            #expect(response.status == .unauthorized)
            #expect(reader.calls.isEmpty)
        }
    }

    @Test("one scan at a time and two in line: the fourth at once is 503 label_scan_busy with Retry-After, and the three finish once let go")
    func busy() async throws {
        let reader = FakeLabelReader(answer: .success(LabelFixtures.result(LabelFixtures.usReading)), gated: true)
        let queue = WorkLine(maxRunning: 1, maxWaiting: 2)
        try await MediaAPITests.withApp(try Self.services(reader, queue: queue)) { client in
            let ana = try await client.signInAsGuest()
            async let first = Self.post(client, LabelFixtures.jpeg, ana)
            async let second = Self.post(client, LabelFixtures.jpeg, ana)
            async let third = Self.post(client, LabelFixtures.jpeg, ana)
            // Wait until one scan runs and two wait.
            for _ in 0..<500 where queue.load != (1, 2) || reader.startedCount < 1 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(queue.load == (1, 2))
            #expect(reader.startedCount == 1)
            let refused = try await Self.post(client, LabelFixtures.jpeg, ana)
            #expect(refused.status == .serviceUnavailable)
            #expect(try refused.errorDetail().code == "label_scan_busy")
            #expect(try refused.errorDetail().message == "Many labels are being read right now. Try again in a few seconds.")
            #expect(refused.headers[.retryAfter] == "3")
            // Let them go: each release lets the next in line start, until all three have run.
            for _ in 0..<1_000 {
                reader.releaseAll()
                if reader.startedCount == 3, queue.load == (0, 0) { break }
                try await Task.sleep(for: .milliseconds(5))
            }
            let statuses = try await [first.status, second.status, third.status]
            #expect(statuses == [.ok, .ok, .ok])
            #expect(reader.startedCount == 3)
            #expect(queue.load == (0, 0))
        }
    }
}

@Suite("Label scan queue")
struct WorkLineTests {
    /// The nice value of the calling thread (Linux: field 19 of /proc/thread-self/stat), nil elsewhere.
    static func niceness() -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command name in parentheses: field 3 onwards; nice is field 19.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) : nil
    }

    @Test("a scan runs on the scan threads at nice 10, not on the caller's thread")
    func runsOnScanThreads() async throws {
        let queue = WorkLine(maxRunning: 1, maxWaiting: 1)
        let (onScanThread, nice) = try await queue.run { (queue.threads.isCurrent, Self.niceness()) }
        #expect(onScanThread)
        #expect(!queue.threads.isCurrent)
        #if os(Linux)
        #expect(nice == 10)
        #expect(Self.niceness() == 0)
        #endif
    }

    @Test("turns are taken in order of arrival; a waiting scan that is cancelled leaves the line and the next one runs")
    func orderAndCancellation() async throws {
        let queue = WorkLine(maxRunning: 1, maxWaiting: 3)
        let order = OrderLog()
        let gate = Gate()
        let holder = Task { try await queue.run { await gate.wait(); order.append(0) } }
        for _ in 0..<500 where queue.load.running == 0 { try await Task.sleep(for: .milliseconds(2)) }
        let one = Task { try await queue.run { order.append(1) } }
        for _ in 0..<500 where queue.load.waiting < 1 { try await Task.sleep(for: .milliseconds(2)) }
        let cancelled = Task { try await queue.run { order.append(99) } }
        for _ in 0..<500 where queue.load.waiting < 2 { try await Task.sleep(for: .milliseconds(2)) }
        let two = Task { try await queue.run { order.append(2) } }
        for _ in 0..<500 where queue.load.waiting < 3 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(queue.load == (1, 3))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(queue.load == (1, 2))
        await gate.open()
        try await holder.value
        try await one.value
        try await two.value
        #expect(order.values == [0, 1, 2])
        #expect(queue.load == (0, 0))
    }

    @Test("a full line refuses at once with the seconds to wait; the defaults are one scan per two cores and four in line per scan")
    func fullLine() async throws {
        let queue = WorkLine(maxRunning: 2, maxWaiting: 0)
        let gate = Gate()
        let a = Task { try await queue.run { await gate.wait() } }
        let b = Task { try await queue.run { await gate.wait() } }
        for _ in 0..<500 where queue.load.running < 2 { try await Task.sleep(for: .milliseconds(2)) }
        await #expect(throws: WorkLine.Busy(retryAfterSeconds: 2)) { try await queue.run { 1 } }
        await gate.open()
        try await a.value
        try await b.value
        #expect(try await queue.run { 7 } == 7)
        let defaults = WorkLine()
        #expect(defaults.maxRunning == max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
        #expect(defaults.maxWaiting == 4 * defaults.maxRunning)
    }
}

final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ value: Int) { lock.withLock { items.append(value) } }
    var values: [Int] { lock.withLock { items } }
}

actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }
    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}

@Suite("Meals: source labelScan (issue 19)")
struct LabelScanMealSourceTests {
    @Test("a meal posted with source labelScan keeps it, is meal_logged {source labelScan}, and no PATCH changes it; a source that does not fit is a 422 naming it", arguments: StoreBackend.allCases)
    func labelScanSource(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInWithProfile()
            let created = try await client.api(.post, "/api/v1/meals", ana, json: [
                "name": "Mac and cheese", "calories": 500, "protein": 12, "carbs": 62, "fat": 24, "source": "labelScan",
                "loggedAt": "2026-03-01T11:30:00Z",
            ])
            #expect(created.status == .created, "\(created.text)")
            let meal = try created.object()
            #expect(meal["source"] as? String == "labelScan")
            #expect(number(meal["calories"]) == 500)
            #expect(number(meal["protein"]) == 12)
            let id = try #require(meal["id"] as? String)
            let events = try await t.services.analytics.events(userId: ana.userId).filter { $0.name == .mealLogged }
            #expect(events.map { $0.properties["source"] } == ["labelScan"])
            #expect(events.map { $0.properties["meal_type"] } == ["lunch"])

            // Edited values keep the source; changing the source is refused.
            let edited = try await client.api(.patch, "/api/v1/meals/\(id)", ana, json: ["calories": 450, "source": "labelScan"])
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try edited.object()["source"] as? String == "labelScan")
            #expect(number(try edited.object()["calories"]) == 450)
            let changed = try await client.api(.patch, "/api/v1/meals/\(id)", ana, json: ["source": "manual"])
            #expect(changed.status == .unprocessableContent)
            #expect(try changed.errorDetail().fields == ["source": "Source must be one of: labelScan."])

            // The manual rules hold: calories 1–9999.
            let zero = try await client.api(.post, "/api/v1/meals", ana, json: ["calories": 0, "source": "labelScan"])
            #expect(zero.status == .unprocessableContent)
            #expect(try zero.errorDetail().fields?["calories"] == "Calories must be between 1-9999")
            // database without a food, labelScan with one, or a word that is no source: 422 on `source`.
            let database = try await client.api(.post, "/api/v1/meals", ana, json: ["calories": 200, "source": "database"])
            #expect(database.status == .unprocessableContent)
            #expect(try database.errorDetail().fields == ["source": "Source must be one of: manual, labelScan."])
            let word = try await client.api(.post, "/api/v1/meals", ana, json: ["calories": 200, "source": "ocr_scan"])
            #expect(try word.errorDetail().fields == ["source": "Source must be one of: manual, labelScan."])
            // Without a source a manual meal is manual, as before.
            let plain = try await client.api(.post, "/api/v1/meals", ana, json: ["calories": 200])
            #expect(try plain.object()["source"] as? String == "manual")
        }
    }
}
