import Hummingbird

/// The coach's JSON API for the signed-in user: profile, plan, dashboard, food search, meals, weights, the coach's tips, the client's analytics events and sync.
/// Each controller's routes are documented in `OpenAPIDocument`.
struct CoachAPI: Sendable {
    let services: AppServices

    func addRoutes(to user: RouterGroup<AuthenticatedContext>) {
        ProfileAPI(services: services).addRoutes(to: user)
        PlanAPI(services: services).addRoutes(to: user)
        DashboardAPI(services: services).addRoutes(to: user)
        FoodsAPI(services: services).addRoutes(to: user)
        MealsAPI(services: services).addRoutes(to: user)
        WeightsAPI(services: services).addRoutes(to: user)
        TipsAPI(services: services).addRoutes(to: user)
        EventsAPI(services: services).addRoutes(to: user)
        SyncAPI(services: services).addRoutes(to: user)
    }
}
