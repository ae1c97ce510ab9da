import GRDB

extension AppDatabase {
    /// Later changes of `profiles`, registered after every other area's migrations so a database migrated before
    /// them gets them in the order they were written.
    static func registerProfileMigrations(_ migrator: inout DatabaseMigrator) {
        // 001 §3: "Other" may carry the person's own words (at most 20 characters, counted as a person sees them,
        // which SQL cannot count; the store checks that). Never empty, and only beside sex = 'other', so that
        // choosing another option cannot leave a stale description behind.
        migrator.registerMigration("v7-profile-gender-description") { db in
            try db.execute(sql: """
                ALTER TABLE profiles ADD COLUMN genderDescription TEXT
                    CHECK (genderDescription IS NULL OR (genderDescription <> '' AND sex = 'other'));
                """)
        }
    }
}
