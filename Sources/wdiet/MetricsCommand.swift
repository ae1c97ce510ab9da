import ArgumentParser
import Foundation
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStorage
import WDietStore

/// `wdiet metrics`: the five POC validation metrics of 004 Story 5.4, computed with SQL where the events are.
struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Activation, Week-1 retention, first-cycle completion, education engagement and phase-switch continuation.",
        discussion: "The cohort is the users whose onboarding started between --from and --to (UTC days, both included)."
    )

    @Option(help: "A SQLite file or postgres://user[:password]@host[:port]/database (default: $\(StoreLocation.environmentVariable), then \(StoreLocation.defaultSQLitePath)).")
    var database: String?
    @Option(help: "First day of the period, YYYY-MM-DD (default: open).") var from: String?
    @Option(help: "Last day of the period, YYYY-MM-DD, included (default: open).") var to: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let start = try Self.day(from, option: "--from")
        let end = try Self.day(to, option: "--to")
        if let start, let end, end < start { throw ValidationError("--to must not be before --from") }
        let location = try StoreLocation.resolve(option: database)
        let period = (start.map { $0.startInstant(in: .gmt) }, end.map { $0.adding(days: 1).startInstant(in: .gmt) })
        // It reads: a database that is not there is a typo, not one to create.
        let store = try await location.open(.existing)
        let metrics: POCMetrics
        do {
            switch store.backend {
            case .sqlite(let database):
                metrics = try await SQLitePOCMetricsStore(database: database).pocMetrics(startedFrom: period.0, to: period.1)
            case .postgres(let database):
                metrics = try await PostgresPOCMetricsStore(client: database.client).pocMetrics(startedFrom: period.0, to: period.1)
            }
        } catch {
            await store.close()
            throw StoreFailure.explaining(error, at: location)
        }
        await store.close()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(metrics), as: UTF8.self))
        } else {
            print(Self.table(metrics, from: start, to: end))
        }
    }

    static func day(_ text: String?, option: String) throws -> LocalDate? {
        guard let text else { return nil }
        guard let date = LocalDate(iso: text) else { throw ValidationError("\(option) must be a date like 2026-03-01") }
        return date
    }

    static func table(_ metrics: POCMetrics, from: LocalDate?, to: LocalDate?) -> String {
        let period = "\(from?.iso ?? "the beginning") to \(to?.iso ?? "today")"
        var lines = ["POC metrics: users who started onboarding from \(period) (\(metrics.cohort) users)"]
        let rows: [(String, POCMetrics.Rate)] = [
            ("Activation", metrics.activation),
            ("Week-1 retention", metrics.weekOneRetention),
            ("First-cycle completion", metrics.firstCycleCompletion),
            ("Education engagement", metrics.educationEngagement),
            ("Phase-switch continuation", metrics.phaseSwitchContinuation),
        ]
        for (name, rate) in rows {
            let share = rate.rate.map { String(format: "%5.1f %%", $0 * 100) } ?? "    –  "
            lines.append(name.padding(toLength: 27, withPad: " ", startingAt: 0)
                + "\(rate.users) / \(rate.outOf)".padding(toLength: 12, withPad: " ", startingAt: 0) + share)
        }
        return lines.joined(separator: "\n")
    }
}
