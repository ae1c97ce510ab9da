import Foundation
import WDietStore
import Hummingbird
import WDietCore

/// Reading what a client sent: JSON bodies, query parameters and path ids. Everything malformed ends as a 400 in
/// the API's error shape with the offending member in `fields`, never as a 500.
enum APIInput {
    /// Bodies are small JSON objects; anything larger is refused before it is decoded.
    static let maxBodyBytes = 64 * 1024

    /// In the request's language, made when asked for.
    enum Message {
        static var notJSON: String { Strings.current("api.notJSON") }
        static var emptyBody: String { Strings.current("api.emptyBody") }
        static var date: String { Strings.current("api.date") }
        static var uuid: String { Strings.current("api.uuid") }
        static var wrongType: String { Strings.current("api.wrongType") }
        static var malformed: String { Strings.current("api.malformed") }
        static var required: String { Strings.current("api.required") }
    }

    /// Decodes a JSON body. Decoding errors become 400 with the member's path in `fields`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try decode(T.self, from: try await body(of: request))
    }

    /// The same for a body that is usually a flat object (a meal, a weight): read without `JSONDecoder` when it
    /// is one of the plain shapes `FlatJSONObject` accepts, decoded by `JSONDecoder` (and its errors) otherwise.
    static func decode<T: FlatJSONDecodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer = try await body(of: request)
        if let object = buffer.withUnsafeReadableBytes({ FlatJSONObject.parse($0) }), let value = T(flatJSON: object) {
            return value
        }
        return try decode(T.self, from: buffer)
    }

    /// The request's body, refused when it is too large or empty.
    private static func body(of request: Request) async throws -> ByteBuffer {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            throw APIError(.contentTooLarge, code: "too_large", message: Strings.current("api.bodyTooLarge"))
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest(Message.emptyBody) }
        // Control characters in any member: 422 naming it (issue 21).
        try ControlCharacterInput.check(json: buffer)
        return buffer
    }

    private static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do {
            return try APICoding.decoder.decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw badRequest(for: error)
        }
    }

    /// A DecodingError as the client should read it: which member, and what was wrong with it.
    static func badRequest(for error: DecodingError) -> APIError {
        switch error {
        case .dataCorrupted(let context):
            let path = pathText(context.codingPath)
            // At the root: the bytes are not JSON at all.
            guard !path.isEmpty else { return .badRequest(Message.notJSON) }
            return .badRequest(Message.malformed, fields: [path: detail(context.debugDescription)])
        case .typeMismatch(let type, let context):
            let path = pathText(context.codingPath)
            guard !path.isEmpty else { return .badRequest(Strings.current("api.notObject")) }
            return .badRequest(Message.malformed, fields: [path: expectation(for: type)])
        case .keyNotFound(let key, let context):
            return .badRequest(Message.malformed, fields: [pathText(context.codingPath + [key]): Message.required])
        case .valueNotFound(let type, let context):
            let path = pathText(context.codingPath)
            return .badRequest(Message.malformed, fields: [path.isEmpty ? "body" : path: expectation(for: type)])
        @unknown default:
            return .badRequest(Message.notJSON)
        }
    }

    /// A decoding error's own words for a member: ours (a catalog text) in the request's language; Foundation's
    /// (English, naming Swift types) as they are in English, and as the catalog's "not valid" in other languages.
    static func detail(_ debugDescription: String) -> String {
        if CatalogText.isCatalogText(debugDescription) { return CatalogText.localized(debugDescription) }
        return Strings.current.language == .english ? debugDescription : Strings.current("api.invalidValue")
    }

    static func pathText(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "\($0)" } ?? key.stringValue }.joined(separator: ".")
    }

    static func expectation(for type: Any.Type) -> String {
        switch type {
        case is String.Type: Strings.current("api.expectedText")
        case is Double.Type, is Int.Type, is Int64.Type: Strings.current("api.expectedNumber")
        case is Bool.Type: Strings.current("api.expectedBool")
        case is [String].Type, is [Any].Type: Strings.current("api.expectedList")
        default: Message.wrongType
        }
    }

    /// A `YYYY-MM-DD` query parameter; nil when absent, 400 when malformed.
    static func date(query name: String, of request: Request) throws -> LocalDate? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let date = LocalDate(iso: text) else {
            throw APIError.badRequest(Strings.current("api.queryDate", ["name": name]), fields: [name: Message.date])
        }
        // Year 0 or 9999 is a date, but no day the product has anything for (issue 21).
        guard DateWindow.accepted.contains(date) else {
            let message = DateWindow.message(member: name, range: DateWindow.accepted)
            throw APIError.badRequest(message, fields: [name: message])
        }
        return date
    }

    /// A UUID path parameter such as the `{id}` of `/meals/{id}`.
    static func uuid(path name: String, of context: some RequestContext) throws -> UUID {
        // Parsed by hand (`UUID(uuidString:)` goes through sscanf); the same ids in either case.
        guard let text = context.parameters.get(name), let id = WireFormat.uuid(text) else {
            throw APIError.badRequest(Strings.current("api.pathId", ["name": name]), fields: [name: Message.uuid])
        }
        return id
    }

    /// A client-generated id from a body; 400 when it is not a UUID.
    static func uuid(_ field: JSONField<String>, name: String = "id") throws -> UUID? {
        switch field {
        case .absent, .null: return nil
        case .value(let text):
            guard let id = WireFormat.uuid(text) else {
                throw APIError.badRequest(Message.malformed, fields: [name: Message.uuid])
            }
            return id
        }
    }
}
