import GRDB

extension AppDatabase {
    /// The meal's slot (issue 17): breakfast, lunch, dinner or snack as the person chose it, or NULL for a meal logged
    /// without one (every meal before this migration, and a sync push from an older client). A NULL slot is the slot
    /// of the meal's local time (`MealSlot`, 002's buckets), worked out when it is read with the profile's time zone:
    /// SQLite has no time zone database to fill the column here, so existing meals keep NULL and get the same answer.
    static func registerMealSlotMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-meal-slot") { db in
            try db.execute(sql: """
                ALTER TABLE meals ADD COLUMN slot TEXT CHECK (slot IS NULL OR slot IN ('breakfast', 'lunch', 'dinner', 'snack'))
                """)
        }
    }
}
