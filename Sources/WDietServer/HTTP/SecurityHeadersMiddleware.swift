import HTTPTypes
import Hummingbird

/// Headers every response carries: a Content-Security-Policy that allows no inline script and nothing from
/// other origins (everything is served by the server itself), and the usual hardening headers.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String { SecurityHeaderValues.contentSecurityPolicy }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = SecurityHeaderValues.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[SecurityHeaderValues.referrerPolicy] = "same-origin"
        return response
    }
}

/// Built once rather than per response (a generic type cannot hold static stored properties).
enum SecurityHeaderValues {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",  // catalog-exempt: CSP directives, not copy
        "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
        "frame-ancestors 'none'", "form-action 'self'",
    ].joined(separator: "; ")
    /// HTTPTypes has no constant for it; the name is a valid token.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
