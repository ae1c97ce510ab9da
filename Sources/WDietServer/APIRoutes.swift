import Hummingbird
import WDietStore

/// The JSON API for native clients, version 1.
struct APIRoutes: Sendable {
    let services: AppServices
    let configuration: ServerConfiguration

    func register(on api: RouterGroup<AppRequestContext>) {
        // Routes for signed-in users; the group's context cannot exist without a user.
        let user = api.group(context: AuthenticatedContext.self)
        OpenAPIDocument.addRoute(to: api)
        CoachAPI(services: services).addRoutes(to: user)
    }
}
