import HTTPTypes
import Hummingbird

/// `405 Method Not Allowed` with `Allow` for a method the API does not have on a path it does have (RFC 9110 §15.5.6;
/// issue 21 item 10: `DELETE /api/v1/plan` answered 404, as if the path did not exist). One place for every route:
/// `buildRouter` adds it last, after every route, so the router puts it only in front of its "no such route" answer
/// (a middleware applies to the endpoints added after it, and the not-found responder is made from all of them), and
/// hands it the router's own route table (`Router.routes`), so it can never disagree with the routes.
///
/// Only paths under `/api/` are answered so; the web app's pages keep their 404 page. The `Allow` methods are those
/// of the route the router would have chosen for the path: a literal segment wins over a parameter, as in the
/// router's trie (`GET /meals/batch` is told `POST`, not `/meals/{id}`'s `PATCH, DELETE`).
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each route path's components and its methods, sorted by name.
    let routes: [(components: [RouterPath.Element], methods: [String])]

    init(routes: [(path: RouterPath, method: HTTPRequest.Method)]) {
        var byPath: [String: (components: [RouterPath.Element], methods: Set<String>)] = [:]
        for route in routes where route.path.description.hasPrefix("/api/") {
            byPath[route.path.description, default: (route.path.components, [])].methods.insert(route.method.rawValue)
        }
        self.routes = byPath.values.map { ($0.components, $0.methods.sorted()) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let unmatched as HTTPError where unmatched.status == .notFound {
            guard let methods = allowedMethods(path: request.uri.path), !methods.contains(request.method.rawValue) else {
                throw unmatched
            }
            var headers = HTTPFields()
            headers[.allow] = methods.joined(separator: ", ")
            throw APIError(.methodNotAllowed, code: "method_not_allowed", message: APIError.statusText(.methodNotAllowed), headers: headers)
        }
    }

    /// The methods of the route for `path`, or nil when no route has that path.
    func allowedMethods(path: String) -> [String]? {
        guard path.hasPrefix("/api/") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: (score: [Bool], methods: [String])?
        for route in routes where route.components.count == segments.count {
            guard zip(route.components, segments).allSatisfy({ $0.0 ~= $0.1 }) else { continue }
            // Literal segments, from the first: the router's trie tries a literal child before a parameter.
            let score = route.components.map { !$0.description.contains("{") && !$0.description.contains("*") }
            if let current = best, !Self.precedes(score, current.score) { continue }
            best = (score, route.methods)
        }
        return best?.methods
    }

    /// Whether a route with literal segments `a` is chosen before one with `b`: at the first segment where they
    /// differ, the literal one.
    static func precedes(_ a: [Bool], _ b: [Bool]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x }
        return false
    }
}
