import Foundation
import Hummingbird
import WDietStorage
import WDietStore

/// Session tokens on the wire: the web app's cookie and the API's bearer header. The token itself (256 random bits
/// in base64url) and the SHA-256 the store keeps are `SessionSecret`'s (WDietStorage), shared with seeded sessions.
enum SessionToken {
    /// The web app's session cookie.
    static let cookieName = "wdiet_session"
    static let length = SessionSecret.length

    static func generate() -> String { SessionSecret.generate() }

    /// The form the store keeps (`AccountSession.tokenHash`).
    static func hash(_ token: String) -> String { SessionSecret.hash(token) }

    /// The token the request carries and how: `Authorization: Bearer <token>` (an API session) or else the session
    /// cookie (a web session). Anything not shaped like a token is no token, and costs no lookup; a request with an
    /// Authorization header is judged by that header alone.
    static func presented(in request: Request) -> (token: String, kind: AccountSession.Kind)? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2, isBearer(parts[0]) else { return nil }
            // Spaces and tabs around the token, by hand: Foundation's `trimmingCharacters` bridges through
            // NSString, and it was 5 % of a request's CPU (a perf profile of a save that touched no database).
            var token = parts[1]
            while let first = token.first, first == " " || first == "\t" { token.removeFirst() }
            while let last = token.last, last == " " || last == "\t" { token.removeLast() }
            return isWellFormed(token) ? (String(token), .api) : nil
        }
        if let cookie = request.cookies[cookieName]?.value, isWellFormed(cookie) {
            return (cookie, .web)
        }
        return nil
    }

    /// "Bearer" in any case, without lowercasing a copy (ASCII letters differ from their capitals by 0x20 alone).
    static func isBearer(_ scheme: Substring) -> Bool {
        scheme.utf8.elementsEqual("bearer".utf8) { $0 | 0x20 == $1 }
    }

    static func isWellFormed(_ token: some StringProtocol) -> Bool {
        token.utf8.count == length && token.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}
