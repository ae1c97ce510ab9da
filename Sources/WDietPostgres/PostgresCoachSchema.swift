/// The coach's tables on PostgreSQL: users, sessions, profiles, meals, weights, analytics, tips.
enum PostgresCoachSchema {
    static let migrations: [PostgresMigration] = []
}
