import GRDB

extension AppDatabase {
    /// Hardened sign-in: failed sign-ins counted per key (`loginFailures`) and Apple/Google identities
    /// (`identities`). Neither table syncs.
    ///
    /// `loginFailures.throttleKey` is a SHA-256 the server makes of "account:<email>" or "address:<ip>", so the
    /// table keeps no email or address in the clear; `windowStartedAt` is integer milliseconds since 1970, so the
    /// window arithmetic is plain SQL on every backend. `identities` is keyed by (issuer, subject), never by email.
    static func registerSignInMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-sign-in-throttle-and-identities") { db in
            try db.execute(sql: """
                CREATE TABLE loginFailures (
                    throttleKey TEXT PRIMARY KEY NOT NULL CHECK (throttleKey <> ''),
                    failureCount INTEGER NOT NULL CHECK (failureCount > 0),
                    windowStartedAt INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX loginFailures_windowStartedAt ON loginFailures(windowStartedAt);

                CREATE TABLE identities (
                    issuer TEXT NOT NULL CHECK (issuer <> ''),
                    subject TEXT NOT NULL CHECK (subject <> ''),
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    email TEXT,
                    linkedAt TEXT NOT NULL,
                    PRIMARY KEY (issuer, subject)
                ) WITHOUT ROWID;
                CREATE INDEX identities_userId ON identities(userId);
                """)
        }
    }
}
