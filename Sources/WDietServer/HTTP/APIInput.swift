import Foundation
import Hummingbird
import WDietCore
import WDietSQLite

/// Reading what a client sent: JSON bodies, query parameters and path ids. Everything malformed ends as a 400 in
/// the API's error shape with the offending member in `fields`, never as a 500.
enum APIInput {
    /// Bodies are small JSON objects; anything larger is refused before it is decoded.
    static let maxBodyBytes = 64 * 1024

    enum Message {
        static let notJSON = "The request body is not valid JSON."
        static let emptyBody = "The request body is empty: send a JSON object."
        static let date = "Please enter a date as YYYY-MM-DD"
        static let uuid = "Expected an id such as 3F2504E0-4F89-11D3-9A0C-0305E82C3301"
        static let wrongType = "This value has the wrong type"
        static let malformed = "The request has malformed values."
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
            throw APIError(.contentTooLarge, code: "too_large", message: "The request body is too large.")
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest(Message.emptyBody) }
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
            return .badRequest(Message.malformed, fields: [path: context.debugDescription])
        case .typeMismatch(let type, let context):
            let path = pathText(context.codingPath)
            guard !path.isEmpty else { return .badRequest("The request body must be a JSON object.") }
            return .badRequest(Message.malformed, fields: [path: expectation(for: type)])
        case .keyNotFound(let key, let context):
            return .badRequest(Message.malformed, fields: [pathText(context.codingPath + [key]): "This value is required"])
        case .valueNotFound(let type, let context):
            let path = pathText(context.codingPath)
            return .badRequest(Message.malformed, fields: [path.isEmpty ? "body" : path: expectation(for: type)])
        @unknown default:
            return .badRequest(Message.notJSON)
        }
    }

    static func pathText(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "\($0)" } ?? key.stringValue }.joined(separator: ".")
    }

    static func expectation(for type: Any.Type) -> String {
        switch type {
        case is String.Type: "Expected text"
        case is Double.Type, is Int.Type, is Int64.Type: "Expected a number"
        case is Bool.Type: "Expected true or false"
        case is [String].Type, is [Any].Type: "Expected a list of text"
        default: Message.wrongType
        }
    }

    /// A `YYYY-MM-DD` query parameter; nil when absent, 400 when malformed.
    static func date(query name: String, of request: Request) throws -> LocalDate? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let date = LocalDate(iso: text) else {
            throw APIError.badRequest("The \(name) parameter must be a date as YYYY-MM-DD.", fields: [name: Message.date])
        }
        return date
    }

    /// A UUID path parameter such as the `{id}` of `/meals/{id}`.
    static func uuid(path name: String, of context: some RequestContext) throws -> UUID {
        // Parsed by hand (`UUID(uuidString:)` goes through sscanf); the same ids in either case.
        guard let text = context.parameters.get(name), let id = AppDatabase.uuid(text) else {
            throw APIError.badRequest("The \(name) in the path is not a valid id.", fields: [name: Message.uuid])
        }
        return id
    }

    /// A client-generated id from a body; 400 when it is not a UUID.
    static func uuid(_ field: JSONField<String>, name: String = "id") throws -> UUID? {
        switch field {
        case .absent, .null: return nil
        case .value(let text):
            guard let id = AppDatabase.uuid(text) else {
                throw APIError.badRequest(Message.malformed, fields: [name: Message.uuid])
            }
            return id
        }
    }
}
