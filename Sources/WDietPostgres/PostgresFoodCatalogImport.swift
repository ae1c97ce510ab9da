import Foundation
import Logging
import PostgresNIO
import WDietFoodData
import WDietStore

/// What an import of the food catalog into PostgreSQL did; the same counts the SQLite importer reports.
public struct PostgresFoodCatalogImportSummary: Hashable, Sendable, Codable {
    public var foods: Int
    public var foodGroups: Int
    public var nutrientDefinitions: Int
    public var nutrientValues: Int
    public var householdMeasures: Int
    /// The fingerprint of the imported files.
    public var contentHash: String
    /// True when the database already held exactly these files and nothing was written.
    public var unchanged: Bool

    public init(
        foods: Int, foodGroups: Int, nutrientDefinitions: Int, nutrientValues: Int, householdMeasures: Int,
        contentHash: String, unchanged: Bool
    ) {
        self.foods = foods
        self.foodGroups = foodGroups
        self.nutrientDefinitions = nutrientDefinitions
        self.nutrientValues = nutrientValues
        self.householdMeasures = householdMeasures
        self.contentHash = contentHash
        self.unchanged = unchanged
    }
}

/// Loads USDA SR28 into the PostgreSQL catalog tables (`PostgresFoodCatalogSchema`).
///
/// One transaction per import, so a crash half-way leaves the previous catalog (or none), never half of one.
/// A transaction-scoped advisory lock serialises imports: when several `wdiet serve` processes start together on
/// an empty database, one imports and the others wait, then find the catalog there. Rows go in with COPY, the
/// fastest way into PostgreSQL (about 700,000 nutrient values).
public enum PostgresFoodCatalogImport {
    /// The advisory lock every importer takes ("wdietfc" in ASCII); nothing else in w-diet uses it.
    static let advisoryLockKey: Int64 = 0x7764_6965_7466_63

    /// Imports the catalog from `dataFolder` unless one is already there (whatever its version). Returns true
    /// when this call imported it. Throws `StoreError.catalogMissing` when files are missing, `StoreError.invalid`
    /// (with file and line) when one is malformed.
    public static func importIfMissing(client: PostgresClient, dataFolder: URL, logger: Logger) async throws -> Bool {
        if try await isLoaded(client: client, logger: logger) { return false }
        let catalog = try readCatalog(from: dataFolder)
        let began = ContinuousClock.now
        let imported = try await client.withTransaction(logger: logger) { connection -> Bool in
            try await lock(connection, logger: logger)
            // Another process may have imported while this one parsed the files.
            guard try await storedContentHash(connection, logger: logger) == nil else { return false }
            try await insert(catalog, connection: connection, logger: logger)
            return true
        }
        if imported {
            logger.info("Imported the food catalog into PostgreSQL", metadata: [
                "foods": "\(catalog.foods.count)", "seconds": "\(seconds(since: began))",
            ])
        }
        return imported
    }

    /// `wdiet import-foods` on PostgreSQL: imports the files in `directory`, replacing an older catalog in one
    /// transaction. Idempotent: when the files' fingerprint matches the catalog there, nothing is written.
    public static func importCatalog(
        client: PostgresClient, from directory: URL, logger: Logger
    ) async throws -> PostgresFoodCatalogImportSummary {
        let files = try catalogFiles(in: directory)
        if let summary = try await client.withConnection({ connection in
            try await unchangedSummary(connection, contentHash: files.contentHash, logger: logger)
        }) {
            return summary
        }
        return try await replaceCatalog(client: client, with: try parse(files), logger: logger)
    }

    /// Replaces the whole catalog with `catalog` in one transaction, unless it is the one already there. The
    /// importer's second half; benchmarks and tests call it with a catalog they built.
    public static func replaceCatalog(
        client: PostgresClient, with catalog: SR28Catalog, logger: Logger
    ) async throws -> PostgresFoodCatalogImportSummary {
        try await client.withTransaction(logger: logger) { connection in
            try await lock(connection, logger: logger)
            if let summary = try await unchangedSummary(connection, contentHash: catalog.contentHash, logger: logger) {
                return summary
            }
            // DELETE rather than TRUNCATE: searches keep reading the old catalog until this transaction commits.
            for table in ["food_catalog_info", "food_search_word", "food_nutrient", "household_measure", "food",
                "nutrient_definition", "food_group"]
            {
                try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: logger)
            }
            try await insert(catalog, connection: connection, logger: logger)
            return PostgresFoodCatalogImportSummary(
                foods: catalog.foods.count, foodGroups: catalog.foodGroups.count,
                nutrientDefinitions: catalog.nutrientDefinitions.count, nutrientValues: catalog.nutrientValueCount,
                householdMeasures: catalog.measureCount, contentHash: catalog.contentHash, unchanged: false
            )
        }
    }

    /// Whether a catalog has been imported (completely: its info row is written last).
    public static func isLoaded(client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.query("SELECT EXISTS (SELECT 1 FROM food_catalog_info)", logger: logger)
        for try await loaded in rows.decode(Bool.self) { return loaded }
        return false
    }

    /// What a user is told when the catalog is not there.
    static let catalogHint =
        "Import it with `wdiet import-foods --from DIR`; outside this environment, download SR28 with scripts/fetch-food-data.sh first."

    // MARK: Reading the files

    static func catalogFiles(in directory: URL) throws -> SR28Files {
        do {
            return try SR28Files(directory: directory)
        } catch let error as SR28Error {
            throw StoreError.catalogMissing("\(error). \(catalogHint)")
        }
    }

    static func parse(_ files: SR28Files) throws -> SR28Catalog {
        do {
            return try SR28Reader.parse(files)
        } catch let error as SR28Error {
            throw StoreError.invalid(error.description)
        }
    }

    static func readCatalog(from directory: URL) throws -> SR28Catalog {
        try parse(try catalogFiles(in: directory))
    }

    // MARK: Inside the transaction

    static func lock(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(advisoryLockKey))", logger: logger)
    }

    static func storedContentHash(_ connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.query("SELECT content_hash FROM food_catalog_info WHERE id = 1", logger: logger)
        for try await hash in rows.decode(String.self) { return hash }
        return nil
    }

    static func unchangedSummary(
        _ connection: PostgresConnection, contentHash: String, logger: Logger
    ) async throws -> PostgresFoodCatalogImportSummary? {
        guard try await storedContentHash(connection, logger: logger) == contentHash else { return nil }
        let rows = try await connection.query("""
            SELECT (SELECT count(*) FROM food), (SELECT count(*) FROM food_group),
                (SELECT count(*) FROM nutrient_definition), (SELECT count(*) FROM food_nutrient),
                (SELECT count(*) FROM household_measure)
            """, logger: logger)
        for try await (foods, groups, definitions, values, measures) in rows.decode((Int, Int, Int, Int, Int).self) {
            return PostgresFoodCatalogImportSummary(
                foods: foods, foodGroups: groups, nutrientDefinitions: definitions, nutrientValues: values,
                householdMeasures: measures, contentHash: contentHash, unchanged: true
            )
        }
        return nil
    }

    static func insert(_ catalog: SR28Catalog, connection: PostgresConnection, logger: Logger) async throws {
        try await copy(into: "food_group", columns: ["code", "description"], connection: connection, logger: logger) { rows in
            for group in catalog.foodGroups {
                try await rows.append([.text(group.code), .text(group.description)])
            }
        }
        try await copy(
            into: "nutrient_definition", columns: ["number", "unit", "tag", "description", "decimals", "sort_order"],
            connection: connection, logger: logger
        ) { rows in
            for definition in catalog.nutrientDefinitions {
                try await rows.append([
                    .text(definition.number), .text(definition.unit), .text(definition.tag),
                    .text(definition.description), .integer(definition.decimals), .integer(definition.sortOrder),
                ])
            }
        }

        // Numbered from the most generic food down, exactly as the SQLite importer numbers them.
        let ordered = catalog.foods.indices
            .map { (index: $0, key: FoodSearchRanker.staticOrderKey(of: catalog.foods[$0])) }
            .sorted { $0.key != $1.key ? $0.key > $1.key : catalog.foods[$0.index].id < catalog.foods[$1.index].id }
        var searchTokenCount = 0
        try await copy(
            into: "food",
            columns: [
                "ordinal", "id", "food_group_code", "long_description", "short_description", "common_name",
                "manufacturer", "scientific_name", "refuse_percent", "is_survey_food", "kcal", "protein", "carbohydrate",
                "fat", "fiber", "sugars", "sodium", "search_prior", "search_head", "search_body", "search_extra",
            ],
            connection: connection, logger: logger
        ) { rows in
            for (position, entry) in ordered.enumerated() {
                let food = catalog.foods[entry.index]
                let document = FoodSearchDocument(food)
                searchTokenCount += PostgresFoodSearchDocumentTokens(document).count
                try await rows.append([
                    .integer(position + 1), .text(food.id), .text(food.foodGroupCode), .text(food.longDescription),
                    .text(food.shortDescription), .text(food.commonName), .text(food.manufacturer),
                    .text(food.scientificName), .number(food.refusePercent), .boolean(food.isSurveyFood),
                    .number(food.energyKcal), .number(food.protein), .number(food.carbohydrate), .number(food.fat),
                    .number(food.fiber), .number(food.sugars), .number(food.sodium),
                    .number(FoodSearchRanker.prior(of: food)), .text(document.head), .text(document.body),
                    .text(document.extra),
                ])
            }
        }
        try await copy(
            into: "food_nutrient", columns: ["food_id", "nutrient_number", "amount"], connection: connection, logger: logger
        ) { rows in
            for food in catalog.foods {
                for value in food.nutrients {
                    try await rows.append([.text(food.id), .text(value.nutrientNumber), .number(value.amount)])
                }
            }
        }
        try await copy(
            into: "household_measure", columns: ["food_id", "sequence", "amount", "description", "grams"],
            connection: connection, logger: logger
        ) { rows in
            for food in catalog.foods {
                for measure in food.measures {
                    try await rows.append([
                        .text(food.id), .integer(measure.sequence), .number(measure.amount), .text(measure.description),
                        .number(measure.grams),
                    ])
                }
            }
        }
        try await connection.query("""
            INSERT INTO food_search_word (word, documents)
            SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM food')
            """, logger: logger)
        try await connection.query("""
            INSERT INTO food_catalog_info (id, content_hash, imported_at, food_count, search_token_count)
            VALUES (1, \(catalog.contentHash), now(), \(catalog.foods.count), \(searchTokenCount))
            """, logger: logger)
        // Fresh statistics, so that the first searches already use the indexes.
        try await connection.query(
            "ANALYZE food_group, nutrient_definition, food, food_nutrient, household_measure, food_search_word",
            logger: logger
        )
    }

    static func copy(
        into table: String, columns: [String], connection: PostgresConnection, logger: Logger,
        rows produce: (inout PostgresCopyTextRows) async throws -> Void
    ) async throws {
        try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
            var rows = PostgresCopyTextRows(writer: writer)
            try await produce(&rows)
            try await rows.flush()
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return String(format: "%.2f", seconds)
    }
}

/// Rows for `COPY ... FROM STDIN (FORMAT text)`, sent in chunks of about a megabyte.
struct PostgresCopyTextRows {
    enum Field {
        case text(String?)
        case number(Double?)
        case integer(Int)
        case boolean(Bool)
    }

    let writer: PostgresCopyFromWriter
    var buffer = ByteBuffer()
    static let chunkSize = 1 << 20

    init(writer: PostgresCopyFromWriter) {
        self.writer = writer
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    mutating func append(_ fields: [Field]) async throws {
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch field {
            case .text(nil), .number(nil):
                buffer.writeStaticString("\\N")
            case .text(let text?):
                writeEscaped(text)
            case .number(let number?):
                buffer.writeString(String(number))
            case .integer(let integer):
                buffer.writeString(String(integer))
            case .boolean(let boolean):
                buffer.writeStaticString(boolean ? "t" : "f")
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
        if buffer.readableBytes >= Self.chunkSize { try await flush() }
    }

    mutating func flush() async throws {
        guard buffer.readableBytes > 0 else { return }
        try await writer.write(buffer)
        buffer.clear()
    }

    /// COPY's text format gives backslash, tab, newline and carriage return a meaning; everything else is literal.
    private mutating func writeEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
            case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
            case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }
}
