import GRDB

extension AppDatabase {
    /// "A day's targets are that day's" (issue 17): the profile row keeps every change of its target inputs, not only
    /// the latest. `planPreviousInputs` and `planChangedOn` stay the latest change (the one that may wait for
    /// midnight); `planEarlierChanges` holds the ones before it, oldest first, as a JSON array of `PlanChange`
    /// objects (`{"changedOn": "2026-01-20", "previous": {…TargetInputs…}}`). A row migrated from before keeps its
    /// latest change and an empty history: days before it use that change's previous inputs, as they did.
    static func registerPlanHistoryMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-profile-plan-history") { db in
            try db.execute(sql: """
                ALTER TABLE profiles ADD COLUMN planEarlierChanges TEXT NOT NULL DEFAULT '[]'
                    CHECK (json_valid(planEarlierChanges) AND json_type(planEarlierChanges) = 'array')
                """)
        }
    }
}
