import Foundation
import HTTPTypes
import Hummingbird
import Logging
import WDietCore
import WDietStore

/// Every error the server shows, as JSON with one stable shape:
/// `{"error": {"code": "invalid", "message": "…", "fields": {"calories": "Calories must be between 1-9999"}}}`.
/// Messages are written for people, in the request's language (`Strings.current`); codes are stable English
/// identifiers for programs. No SQL, stack trace or file path ever goes out.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var fields: [String: String]
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, code: String, message: String, fields: [String: String] = [:], headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.headers = headers
    }

    public static var unauthorized: APIError { APIError(.unauthorized, code: "unauthorized", message: Strings.current("errors.unauthorized")) }
    public static func notFound(_ message: String = Strings.current("errors.notFound")) -> APIError {
        APIError(.notFound, code: "not_found", message: message)
    }
    public static func badRequest(_ message: String, fields: [String: String] = [:]) -> APIError {
        APIError(.badRequest, code: "bad_request", message: message, fields: fields)
    }
    public static func invalid(_ message: String, fields: [String: String] = [:]) -> APIError {
        APIError(.unprocessableContent, code: "invalid", message: message, fields: fields)
    }

    struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var fields: [String: String]?
        }
        var error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(error: .init(code: code, message: message, fields: fields.isEmpty ? nil : fields))
        let data = try APICoding.encoder.encode(body)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    /// What the API answers for anything a handler throws: its own errors as they are, store errors by kind,
    /// bad JSON as 400, anything else as a 500 whose detail stays in the log. A store's message was made outside the
    /// request (in English) and is answered in the request's language (`CatalogText`).
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as InvalidInput:
            return .invalid(error.message, fields: error.fields)
        case let refusal as AccountRefusal:
            return APIError(refusal)
        case let error as StoreError:
            switch error {
            case .notFound(let m): return .notFound(CatalogText.localized(m))
            case .invalid(let m): return .invalid(CatalogText.localized(m))
            case .conflict(let m): return APIError(.conflict, code: "conflict", message: CatalogText.localized(m))
            case .catalogMissing(let m):
                // The English message names the operator's command; other languages say the same in their words.
                let message = Strings.current.language == .english ? m : Strings.current("errors.catalogMissing")
                return APIError(.serviceUnavailable, code: "catalog_missing", message: message)
            case .unavailable: return APIError(.serviceUnavailable, code: "unavailable", message: Strings.current("errors.unavailable"))
            }
        case is DecodingError:
            return .badRequest(Strings.current("errors.notJSONForEndpoint"))
        case let error as HTTPError:
            return APIError(error.status, code: "http_\(error.status.code)", message: error.body ?? statusText(error.status))
        default:
            return APIError(.internalServerError, code: "internal", message: Strings.current("errors.internal"))
        }
    }

    /// A status's reason phrase ("Not Found"), in the request's language where the catalog has it.
    static func statusText(_ status: HTTPResponse.Status) -> String {
        let strings = Strings.current
        let key = "errors.httpStatus\(status.code)"
        guard strings.language != .english, strings.has(key) else { return status.reasonPhrase }
        return strings(key)
    }
}

extension APIError {
    /// The error as a person or client is shown it, with what they are not shown logged: a 500 is a bug worth an
    /// error line; a 503 (no catalog, store busy) is a known state, a warning.
    static func logged(_ error: any Error, path: String, logger: Logger) -> APIError {
        let apiError = APIError.from(error)
        if apiError.status == .internalServerError {
            logger.error("request failed", metadata: ["path": "\(path)", "error": "\(String(reflecting: error))"])
        } else if apiError.status.code >= 500 {
            logger.warning("request unavailable", metadata: ["path": "\(path)", "code": "\(apiError.code)"])
        }
        return apiError
    }
}

/// Turns every error that reaches it into the API's JSON shape, in the current language (`Strings.current`). The web
/// app's routes have their own error pages (`WebErrorPageMiddleware` on the web groups); any other path outside
/// /api/ gets the HTML error page.
///
/// It stands twice in `buildRouter`. Inside `AccountSettingsMiddleware` it answers what handlers throw, so a signed-in
/// account reads its errors in the language it chose; there it lets the router's "no such route" pass
/// (`passesUnmatchedPaths`), since the path may be a file for `FileMiddleware`. Outermost it answers the rest, in the
/// browser's language: a path that is neither a route nor a file, a session that could not be looked up, a
/// cross-site post.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    var passesUnmatchedPaths = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as WebRedirect {
            return try redirect.response(from: request, context: context)
        } catch let unmatched as HTTPError where passesUnmatchedPaths && unmatched.status == .notFound {
            throw unmatched
        } catch let refused as DeferredSessionCheck.Refused {
            // Not an answer: `SessionAuthMiddleware` reads the session and runs the request again.
            throw refused
        } catch {
            let apiError = APIError.logged(error, path: request.uri.path, logger: context.logger)
            if !request.uri.path.hasPrefix("/api/"), let page = try? WebErrorPage.response(for: apiError, path: request.uri.path) {
                return page
            }
            return try apiError.response(from: request, context: context)
        }
    }
}
