import Hummingbird

/// Records `error_logged` when a path outside the web app's route groups fails for a signed-in user (a page that
/// does not exist); the web groups' own `WebErrorPageMiddleware` records their pages' errors. It sits inside
/// `SessionAuthMiddleware`, where the user is known, and rethrows: `APIErrorMiddleware` still renders the error page. The API's errors are answers
/// a client handles, and a missing file is no page, so neither is recorded; the browser reports its own script errors.
struct WebErrorEventMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let events: EventRecorder

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as WebRedirect {
            throw redirect
        } catch {
            if let userId = context.userId, Self.isPage(request.uri.path) {
                events.pageFailed(APIError.from(error), path: request.uri.path, userId: userId, logger: context.logger)
            }
            throw error
        }
    }

    /// A page the user navigated to, not the API or a file a page loads (a missing script or icon is no screen).
    static func isPage(_ path: String) -> Bool {
        !path.hasPrefix("/api/") && !path.hasPrefix("/assets/") && !(path.split(separator: "/").last?.contains(".") ?? false)
    }

    /// The page's path with its ids replaced, so one screen is one name: "/meals/<uuid>/edit" → "/meals/:id/edit".
    static func screenName(path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            segment.contains(where: \.isNumber) && segment.count >= 8 || segment.allSatisfy(\.isNumber) ? ":id" : String(segment)
        }
        return String(("/" + segments.joined(separator: "/")).prefix(EventsAPI.maximumValueLength))
    }
}
