import Foundation
import Hummingbird
import Logging
import WDietPostgres
import WDietSQLite
import WDietStorage
import WDietCore
import WDietStore

/// The one assembly point: `wdiet serve` and the tests build the same application.
/// Opens and migrates the database (`StoreLocation.open`, as every command opens it), imports the food catalog on
/// first start, and wires the routes. A database that cannot be used is a `StoreFailure`: one line for the operator.
public func buildApplication(configuration: ServerConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    let store: OpenedStore
    do throws(StoreFailure) {
        // Servers starting together on one PostgreSQL migrate once (an advisory lock); a schema newer than this
        // binary knows is refused.
        store = try await configuration.storeLocation.open(.migrating, postgresConnections: configuration.postgresConnections, logger: logger)
    } catch {
        logger.error("The database could not be opened", metadata: ["error": "\(String(reflecting: error.underlying ?? error))"])
        throw error
    }
    if !store.appliedMigrations.isEmpty {
        logger.info("Database migrated", metadata: ["applied": "\(store.appliedMigrations)"])
    }
    switch store.backend {
    case .sqlite(let database):
        try importCatalogIfMissing(database: database, configuration: configuration, logger: logger)
        let services = AppServices(database: database)
        await deleteMediaOfDeletedAccounts(database, logger: logger)
        await removeUnfinishedImports(database, logger: logger)
        await prepareFoodSearch(services, logger: logger)
        DeletedRowSweeper(
            store: SQLiteDeletedRowStore(database: database), now: Date.init, logger: logger, media: SQLiteMediaStore(database: database)
        ).start()
        return buildApplication(services: services, configuration: configuration, logger: logger)
    case .postgres(let database):
        do {
            try await importCatalogIfMissing(postgres: database, configuration: configuration, logger: logger)
        } catch {
            await database.close()
            logger.error("PostgreSQL start-up failed", metadata: ["error": "\(String(reflecting: error))"])
            throw StoreFailure.explaining(error, at: configuration.storeLocation)
        }
        // AppServices keeps the pool alive; it ends with the process, after the last in-flight request.
        let services = AppServices(postgres: database)
        await prepareFoodSearch(services, logger: logger)
        DeletedRowSweeper(
            store: PostgresDeletedRowStore(client: database.client), now: Date.init, logger: logger,
            media: PostgresMediaStore(client: database.client)
        ).start()
        return buildApplication(services: services, configuration: configuration, logger: logger)
    }
}

/// The food search's in-memory index, built before the server listens rather than by the first search. A failure
/// only delays it: the first search tries again (and says what is wrong).
func prepareFoodSearch(_ services: AppServices, logger: Logger) async {
    let began = Date()
    do {
        if let foods = try await services.foods.prepareSearch() {
            logger.info("Food search index built", metadata: [
                "foods": "\(foods)", "seconds": "\(String(format: "%.2f", Date().timeIntervalSince(began)))", // catalog-exempt: an operator's log
            ])
        }
    } catch {
        logger.warning("The food search index could not be built at start", metadata: ["error": "\(String(reflecting: error))"])
    }
}

/// PostgreSQL at start: the catalog imported when missing (under its own lock: one server imports, the others wait
/// and find it there).
func importCatalogIfMissing(postgres database: PostgresDatabase, configuration: ServerConfiguration, logger: Logger) async throws {
    if let directory = configuration.foodDataDirectory {
        let began = Date()
        if try await PostgresFoodCatalogImport.importIfMissing(client: database.client, dataFolder: directory, logger: logger) {
            logger.info("Food catalog imported", metadata: ["seconds": "\(String(format: "%.1f", Date().timeIntervalSince(began)))"])
        }
    } else if try await !PostgresFoodCatalogImport.isLoaded(client: database.client, logger: logger) {
        logger.warning("No food catalog and no SR28 folder: food search is unavailable until a server starts with --from DIR.")
    }
}

/// The application on services made elsewhere (tests hand in an in-memory database and a test clock).
public func buildApplication(services: AppServices, configuration: ServerConfiguration, logger: Logger) -> some ApplicationProtocol {
    // Why the store fails, once per cause and minute (issue 21): the backends report to the shared log.
    StoreFailureLog.shared.setSink { line in
        logger.error("\(line.message)", metadata: ["cause": "\(line.cause.rawValue)", "detail": "\(line.detail)", "suppressed": "\(line.suppressed)"])
    }
    if let warning = configuration.smtp?.warning { logger.warning("\(warning)") }
    let router = buildRouter(services: services, configuration: configuration)
    return Application(
        router: router,
        server: .http1(limits: configuration.connectionLimits),
        configuration: .init(address: .hostname(configuration.hostname, port: configuration.port), serverName: "w-diet"),
        logger: logger
    )
}

/// All routes, in one place: the JSON API under /api/v1 (each feature's `…API`, documented in `openapi.yaml`) and the
/// web app's pages (each feature's `…Pages`).
public func buildRouter(services: AppServices, configuration: ServerConfiguration) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    // First, so that every error message and page below it is in the reader's language.
    router.add(middleware: LanguageMiddleware())
    router.add(middleware: SecurityHeadersMiddleware())
    // What fails before a handler runs: a path that is neither a route nor a file, the session lookup, a cross-site post.
    router.add(middleware: APIErrorMiddleware())
    // Control characters in the query or path: 422 naming the parameter, before any route reads it (issue 21).
    router.add(middleware: ControlCharacterMiddleware())
    router.add(middleware: FileMiddleware(WebTemplates.publicFolder, cacheControl: .init([(MediaType(type: .text, subType: "css"), [.maxAge(3_600)]), (MediaType(type: .application, subType: "javascript"), [.maxAge(3_600)])])))
    let accounts = AccountService(
        services: services, passwords: PasswordHasher(cost: configuration.bcryptCost),
        identityProviders: IdentityProvider.configured(configuration),
        jwksFetcher: HTTPJWKSFetcher(timeout: configuration.jwksTimeout),
        sessionCacheTimeToLive: configuration.sessionCacheTimeToLive, sessionHintTimeToLive: configuration.sessionHintTimeToLive
    )
    router.add(middleware: SessionAuthMiddleware(accounts: accounts, checkingTheirOwnSession: MealsAPI.routesCheckingTheirOwnSession))
    router.add(middleware: AccountSettingsMiddleware())
    // What handlers throw, answered while the account's language is current.
    router.add(middleware: APIErrorMiddleware(passesUnmatchedPaths: true))
    router.add(middleware: WebErrorEventMiddleware(events: services.events))
    StringsScript.addRoute(to: router)
    router.get("/health") { _, _ in
        ["status": "ok"]
    }

    let api = router.group("api/v1")
    OpenAPIDocument.addRoute(to: api)
    HealthAPI(services: services).addRoutes(to: api)
    let recovery = PasswordRecovery(
        services: services, passwords: accounts.passwords, accounts: accounts,
        mailer: configuration.smtp.map { SMTPMailer(settings: $0) }, publicURL: configuration.publicURL)
    AuthAPI(accounts: accounts, configuration: configuration, recovery: recovery).register(on: router.group("api/v1/auth"))
    UserDataAPI(services: services, accounts: accounts, configuration: configuration).register(on: api)
    // Routes for signed-in users; the group's context cannot exist without a user.
    let user = api.group(context: AuthenticatedContext.self)
    ProfileAPI(services: services).addRoutes(to: user)
    PlanAPI(services: services).addRoutes(to: user)
    DashboardAPI(services: services).addRoutes(to: user)
    FoodsAPI(services: services).addRoutes(to: user)
    MealsAPI(services: services).addRoutes(to: user)
    QuickLoggingAPI(services: services).addRoutes(to: user)
    WeightsAPI(services: services).addRoutes(to: user)
    JournalAPI(services: services).addRoutes(to: user)
    ChallengeAPI(services: services).addRoutes(to: user)
    ChallengeAppLockAPI(services: services, accounts: accounts).addRoutes(to: user)
    TipsAPI(services: services).addRoutes(to: user)
    EventsAPI(services: services).addRoutes(to: user)
    SyncAPI(services: services).addRoutes(to: user)
    JournalViewsAPI(services: services).addRoutes(to: user)
    MediaAPI(services: services).addRoutes(to: user)
    LabelScanAPI(services: services).addRoutes(to: user)
    AccountSettingChoice<Language>(services: services, accounts: accounts).addRoutes(to: user)
    AccountSettingChoice<Appearance>(services: services, accounts: accounts).addRoutes(to: user)

    // The mobile-first web app: server-rendered pages, enhanced by small scripts under /assets/js that call the JSON
    // API with the session cookie and the page's CSRF token. Every form is read and CSRF-checked by the groups'
    // middleware; the signed-in group sends anyone else to the welcome screen.
    let open = router.group()
        .add(middleware: WebErrorPageMiddleware<AppRequestContext>(events: services.events))
        .add(middleware: CSRFMiddleware<AppRequestContext>())
    let signedIn = router.group(context: WebUserContext.self)
        .add(middleware: WebErrorPageMiddleware<WebUserContext>(events: services.events))
        .add(middleware: CSRFMiddleware<WebUserContext>())
    WelcomePages(services: services).register(on: open)
    OnboardingPages(services: services, accounts: accounts, configuration: configuration).register(open: open, signedIn: signedIn)
    PasswordRecoveryPages(
        recovery: recovery, onboarding: OnboardingPages(services: services, accounts: accounts, configuration: configuration),
        configuration: configuration
    ).register(open: open)
    SettingsPages(services: services, accounts: accounts, configuration: configuration).register(on: signedIn)
    DataImportPage(services: services).register(on: signedIn)
    DashboardPages(services: services).register(on: signedIn)
    ProgressPages(services: services).register(on: signedIn)
    JournalViewsPages(services: services).register(on: signedIn)
    MealPages(services: services).register(on: signedIn)
    LearnPages(services: services).register(on: signedIn)
    ProfilePages(services: services).register(on: signedIn)
    JournalPages(services: services).register(on: signedIn)
    ChallengePages(services: services, accounts: accounts).register(on: signedIn)
    ChallengeProgressPages(services: services).register(on: signedIn)
    // Last, after every route, so it stands only before the router's "no such route": 405 with Allow for a method
    // an API path does not have (issue 21 item 10).
    router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes.map { ($0.path, $0.method) }))
    return router
}

/// First start: the catalog is imported before the server listens, so search works from the first request.
/// Without the SR28 files the server still starts; search answers "catalog missing" and the app offers manual entry.
func importCatalogIfMissing(database: AppDatabase, configuration: ServerConfiguration, logger: Logger) throws {
    guard try !database.isFoodCatalogLoaded else { return }
    guard let directory = configuration.foodDataDirectory else {
        logger.warning("No food catalog and no SR28 folder: food search is unavailable until `wdiet import-foods` runs.")
        return
    }
    logger.info("Importing the USDA SR28 food catalog (first start)", metadata: ["from": "\(directory.path)"])
    let began = Date()
    let summary = try database.importFoodCatalog(from: directory)
    logger.info("Food catalog imported", metadata: ["foods": "\(summary.foods)", "seconds": "\(String(format: "%.1f", Date().timeIntervalSince(began)))"])
}
