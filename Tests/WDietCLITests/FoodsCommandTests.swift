import Foundation
import Testing

@Suite("wdiet import-foods and foods search", .serialized)
struct FoodsCommandTests {
    struct Result: Decodable {
        var id: String
        var name: String
        var kcal: Double?
        var measures: [Measure]
        struct Measure: Decodable { var amount: Double; var description: String; var grams: Double }
    }

    @Test("import, import again (nothing changes), then search as you type")
    func importAndSearch() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("w.sqlite").path
        let data = CLI.foodDataDirectory.path

        let first = try await CLI.run(["import-foods", "--from", data, "--database", db])
        #expect(first.status == 0, "\(first.stderr)")
        // SR28 holds 8,789 foods: its last line has no line end, so `wc -l` counts one fewer.
        #expect(first.stdout.contains("8789 foods"))
        let second = try await CLI.run(["import-foods", "--from", data, "--database", db])
        #expect(second.status == 0)
        #expect(second.stdout.contains("nothing changed"))

        let search = try await CLI.run(["foods", "search", "banan", "--limit", "3", "--json", "--database", db])
        #expect(search.status == 0, "\(search.stderr)")
        let results = try JSONDecoder().decode([Result].self, from: Data(search.stdout.utf8))
        #expect(results.count == 3)
        #expect(results.first?.name == "Bananas, raw")
        #expect(results.first?.kcal == 89)
        #expect(results.first?.measures.contains { $0.description.contains("medium") && $0.grams == 118 } == true)
    }

    @Test("missing food data: one line pointing to scripts/fetch-food-data.sh, non-zero exit")
    func missingData() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try await CLI.run(["import-foods", "--from", dir.appendingPathComponent("nowhere").path, "--database", dir.appendingPathComponent("w.sqlite").path])
        #expect(out.status != 0)
        #expect(out.stderrLines.count == 1)
        #expect(out.stderr.contains("scripts/fetch-food-data.sh"))
        #expect(!out.stderr.contains("Fatal error"))
    }

    @Test("searching an empty catalog with no data at hand says what to do")
    func emptyCatalog() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Run from a folder whose ../shared is our own empty folder, so no first-use import can happen.
        let work = dir.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let out = try await CLI.run(["foods", "search", "banana", "--database", dir.appendingPathComponent("w.sqlite").path], in: work)
        #expect(out.status != 0)
        #expect(out.stderrLines.count == 1)
        #expect(out.stderr.contains("empty"))
        #expect(out.stderr.contains("scripts/fetch-food-data.sh"))
    }

    @Test("bad search input", arguments: [["foods", "search", "banana", "--limit", "0"], ["foods", "search", "  "]])
    func badSearchInput(arguments: [String]) async throws {
        let out = try await CLI.run(arguments)
        #expect(out.status != 0)
        #expect(out.stderrLines.count == 1)
        #expect(out.stdout.isEmpty)
    }
}
