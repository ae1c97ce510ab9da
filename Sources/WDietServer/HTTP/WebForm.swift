import Foundation
import Hummingbird
import WDietCore

/// A posted HTML form (`application/x-www-form-urlencoded`), read only after its CSRF token checks out: the
/// session's token for a signed-in browser, the `wdiet_csrf` double-submit cookie before there is a session.
struct WebForm: Sendable {
    var fields: [String: String]

    subscript(_ name: String) -> String? { fields[name] }

    /// The trimmed value, or "" when the field is missing.
    func text(_ name: String) -> String { (fields[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }

    static let maxBytes = 64 * 1024

    /// The posted form, only when its CSRF token is the expected one (see `CSRFMiddleware`, the one caller).
    static func read(_ request: Request, sessionToken: String?) async throws -> WebForm {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBytes)
        } catch {
            throw APIError(.contentTooLarge, code: "too_large", message: Strings.current("errors.formTooLarge"))
        }
        let form = WebForm(fields: parse(String(buffer: buffer)))
        let expected: String?
        if let sessionToken {
            expected = WebSession.csrfToken(forSession: sessionToken)
        } else {
            expected = request.cookies[WebSession.preSessionCookie]?.value
        }
        guard let expected, !expected.isEmpty, WebSession.matches(form[WebSession.csrfField], expected) else {
            throw WebSession.forbidden
        }
        if WebSession.isCrossSite(request) { throw WebSession.forbidden }
        // Control characters in any field: 422 naming it (issue 21), before any page reads the form.
        try ControlCharacterInput.check(values: form.fields.map { ($0.key, $0.value) })
        return form
    }

    /// `a=1&b=two+words` → ["a": "1", "b": "two words"]; the last of repeated names wins.
    static func parse(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            let name = decode(parts[0])
            guard !name.isEmpty else { continue }
            fields[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
