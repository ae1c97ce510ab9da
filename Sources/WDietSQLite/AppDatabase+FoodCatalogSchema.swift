import GRDB

extension AppDatabase {
    /// The USDA food catalog: read-only reference data, replaced whole by `importFoodCatalog(from:)`.
    /// Meals keep their own copy of the nutrients they were logged with, so nothing references these rows.
    ///
    /// `food.ordinal` is the food's rank in a static order (everyday, unbranded, raw foods first) and the rowid
    /// of its `foodSearch` entry. FTS5 hands matches over in rowid order, so when a query must stop early (a
    /// two-letter prefix over a million foods), it stops after the most generic ones.
    ///
    /// `foodSearch` is contentless: it holds stemmed words that only the importer computes, and searches join back
    /// to `food` for everything shown. It keeps full detail (positions) although no query uses them: with a
    /// contentless table, FTS5 can only compute bm25 from full detail.
    static func registerFoodCatalogMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1-food-catalog") { db in
            try db.execute(sql: """
                CREATE TABLE foodGroup (
                    code TEXT PRIMARY KEY NOT NULL,
                    description TEXT NOT NULL
                );

                CREATE TABLE nutrientDefinition (
                    number TEXT PRIMARY KEY NOT NULL,
                    unit TEXT NOT NULL,
                    tag TEXT NOT NULL,
                    description TEXT NOT NULL,
                    decimals INTEGER NOT NULL,
                    sortOrder INTEGER NOT NULL
                );

                CREATE TABLE food (
                    ordinal INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    foodGroupCode TEXT NOT NULL REFERENCES foodGroup(code),
                    longDescription TEXT NOT NULL,
                    shortDescription TEXT NOT NULL,
                    commonName TEXT,
                    manufacturer TEXT,
                    scientificName TEXT,
                    refusePercent REAL,
                    isSurveyFood BOOLEAN NOT NULL,
                    kcal REAL,
                    protein REAL,
                    carbohydrate REAL,
                    fat REAL,
                    fiber REAL,
                    sugars REAL,
                    sodium REAL,
                    searchPrior REAL NOT NULL
                );

                CREATE TABLE foodNutrient (
                    foodId TEXT NOT NULL REFERENCES food(id) ON DELETE CASCADE,
                    nutrientNumber TEXT NOT NULL REFERENCES nutrientDefinition(number),
                    amount REAL NOT NULL,
                    PRIMARY KEY (foodId, nutrientNumber)
                ) WITHOUT ROWID;

                CREATE TABLE householdMeasure (
                    foodId TEXT NOT NULL REFERENCES food(id) ON DELETE CASCADE,
                    sequence INTEGER NOT NULL,
                    amount REAL NOT NULL,
                    description TEXT NOT NULL,
                    grams REAL NOT NULL,
                    PRIMARY KEY (foodId, sequence)
                ) WITHOUT ROWID;

                CREATE VIRTUAL TABLE foodSearch USING fts5(
                    head, body, extra,
                    content = '', prefix = '2 3 4', tokenize = 'unicode61'
                );

                CREATE TABLE foodCatalogInfo (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    contentHash TEXT NOT NULL,
                    importedAt TEXT NOT NULL
                );
                """)
        }
    }
}
