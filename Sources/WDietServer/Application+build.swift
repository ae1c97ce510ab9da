import Foundation
import Hummingbird
import Logging
import WDietSQLite
import WDietStore

/// The one assembly point: `wdiet serve` and the tests build the same application.
/// Opens and migrates the database, imports the food catalog on first start, and wires the routes.
public func buildApplication(configuration: ServerConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    let database = try AppDatabase.open(path: configuration.databasePath)
    try importCatalogIfMissing(database: database, configuration: configuration, logger: logger)
    return buildApplication(services: AppServices(database: database), configuration: configuration, logger: logger)
}

/// The application on services made elsewhere (tests hand in an in-memory database and a test clock).
public func buildApplication(services: AppServices, configuration: ServerConfiguration, logger: Logger) -> some ApplicationProtocol {
    let router = buildRouter(services: services, configuration: configuration)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.hostname, port: configuration.port), serverName: "w-diet"),
        logger: logger
    )
}

/// All routes. API routes live under /api/v1; see `APIRoutes`.
public func buildRouter(services: AppServices, configuration: ServerConfiguration) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: APIErrorMiddleware())
    router.add(middleware: FileMiddleware(WebTemplates.publicFolder, cacheControl: .init([(MediaType(type: .text, subType: "css"), [.maxAge(3_600)]), (MediaType(type: .application, subType: "javascript"), [.maxAge(3_600)])])))
    let accounts = AccountService(
        services: services, passwords: PasswordHasher(cost: configuration.bcryptCost),
        identityProviders: IdentityProvider.configured(configuration)
    )
    router.add(middleware: SessionAuthMiddleware(accounts: accounts))
    router.get("/health") { _, _ in
        ["status": "ok"]
    }
    APIRoutes(services: services, configuration: configuration).register(on: router.group("api/v1"))
    AuthRoutes(accounts: accounts, configuration: configuration).register(on: router.group("api/v1/auth"))
    UserDataAPI(services: services, accounts: accounts, configuration: configuration).register(on: router.group("api/v1"))
    WebRoutes(services: services, accounts: accounts, configuration: configuration).register(on: router)
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
