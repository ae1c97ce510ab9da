import HTTPTypes
import Hummingbird

/// Headers every response carries: a Content-Security-Policy that allows no inline script and nothing from
/// other origins (everything is served by the server itself), and the usual hardening headers.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
            "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
            "frame-ancestors 'none'", "form-action 'self'",
        ].joined(separator: "; ")
    }


    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        // HTTPTypes has no constant for it; the name is a valid token, so this is never nil.
        if let name = HTTPField.Name("Referrer-Policy") { response.headers[name] = "same-origin" }
        return response
    }
}
