import Foundation
import Hummingbird
import WDietCore

/// The server's side of `ControlCharacters` (issue 21 item 4): every text a request brings is checked here before it
/// is decoded or read, and a refused character is a 422 that names the member (`meals.12.name`), the form field or
/// the query parameter. Called by every reader of a request: `APIInput` (the API's JSON bodies), `SyncAPI` (a push:
/// the change is named, so the client parks it and the rest goes on), the import, `WebForm` (every web form) and
/// `ControlCharacterMiddleware` (query strings).
enum ControlCharacterInput {
    /// "meal.name contains a control character (U+0000), which is not allowed."
    static func message(field: String, _ scalar: Unicode.Scalar) -> String {
        Strings.current("input.controlCharacter", ["field": field, "character": ControlCharacters.name(scalar)])
    }

    /// The message beside the member: "Contains a control character (U+0000), which is not allowed".
    static func fieldMessage(_ scalar: Unicode.Scalar) -> String {
        Strings.current("input.controlCharacterField", ["character": ControlCharacters.name(scalar)])
    }

    /// The first refused character of a JSON body, or nil.
    static func finding(inJSON buffer: ByteBuffer) -> ControlCharacters.Finding? {
        buffer.withUnsafeReadableBytes { ControlCharacters.firstDisallowed(inJSON: $0) }
    }

    /// 422 `invalid` naming the member.
    static func refusal(_ finding: ControlCharacters.Finding) -> APIError {
        let field = finding.path.isEmpty ? "body" : finding.path
        return .invalid(message(field: field, finding.scalar), fields: [field: fieldMessage(finding.scalar)])
    }

    /// A JSON body: 422 when any string in it holds a refused character. A body that is not JSON at all (a raw
    /// control character inside a string is itself malformed JSON) is left to the decoder's 400: the person sent
    /// something unreadable, not a readable value with a refused character in it. Parsed only when a finding exists.
    static func check(json buffer: ByteBuffer) throws {
        guard let finding = finding(inJSON: buffer) else { return }
        let isJSON = buffer.withUnsafeReadableBytes { bytes in
            (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        }
        if isJSON { throw refusal(finding) }
    }

    /// Named values (a form's fields, a query's parameters): 422 naming the first that holds a refused character
    /// (in its name or its value), in name order.
    static func check(values: [(String, String)]) throws {
        for (name, value) in values.sorted(by: { $0.0 < $1.0 }) {
            if let scalar = ControlCharacters.firstDisallowed(in: name) {
                let shown = String(name.unicodeScalars.map { ControlCharacters.isDisallowed($0) ? "?" : Character($0) })
                throw APIError.invalid(message(field: shown, scalar), fields: [shown: fieldMessage(scalar)])
            }
            if let scalar = ControlCharacters.firstDisallowed(in: value) {
                throw APIError.invalid(message(field: name, scalar), fields: [name: fieldMessage(scalar)])
            }
        }
    }
}

/// Query parameters (`/foods/search?q=%00`) and path segments, checked before any route reads them.
struct ControlCharacterMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // Percent-encoded control characters in the path: no route takes them as part of an id or word.
        // By byte: `contains("%")` with a string is Foundation's, through NSString (~0.8 % of a search's CPU).
        if path.utf8.contains(UInt8(ascii: "%")), let decoded = path.removingPercentEncoding, let scalar = ControlCharacters.firstDisallowed(in: decoded) {
            throw APIError.invalid(ControlCharacterInput.message(field: "path", scalar), fields: ["path": ControlCharacterInput.fieldMessage(scalar)])
        }
        if request.uri.query != nil {
            try ControlCharacterInput.check(values: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
        }
        return try await next(request, context)
    }
}
