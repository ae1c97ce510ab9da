import GRDB
import Testing
import WDietSQLite

@Suite("v1-food-catalog migration")
struct FoodCatalogMigrationTests {
    @Test func createsTheCatalogTablesAndSearchIndex() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.read { db in
            for table in ["foodGroup", "nutrientDefinition", "food", "foodNutrient", "householdMeasure", "foodSearch",
                          "foodCatalogInfo"] {
                #expect(try db.tableExists(table), "\(table)")
            }
            #expect(try db.columns(in: "food").map(\.name).contains("searchPrior"))
            #expect(try db.primaryKey("food").columns == ["ordinal"])
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            #expect(applied.contains("v1-food-catalog"))
            // The index works: FTS5 is available in this SQLite.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM foodSearch WHERE foodSearch MATCH 'banana'") == 0)
        }
    }

    @Test func catalogRowsAreChecked() throws {
        let database = try AppDatabase.inMemory()
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO foodCatalogInfo (id, contentHash, importedAt) VALUES (2, 'x', 'y')")
            }
        }
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                // A nutrient value of a food that does not exist.
                try db.execute(sql: "INSERT INTO foodNutrient (foodId, nutrientNumber, amount) VALUES ('00000', '208', 1)")
            }
        }
    }
}
