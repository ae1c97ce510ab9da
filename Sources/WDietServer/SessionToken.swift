import Crypto
import Foundation
import Hummingbird
import WDietStore

/// Session tokens: 256 random bits in base64url, handed to the client once. The store keeps only their SHA-256
/// (lowercase hex), so a copy of the database signs nobody in.
enum SessionToken {
    /// The web app's session cookie.
    static let cookieName = "wdiet_session"
    /// 32 bytes in base64url without padding.
    static let length = 43

    /// `SystemRandomNumberGenerator` reads the kernel's CSPRNG (getrandom) on Linux and arc4random on Darwin.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The token the request carries and how: `Authorization: Bearer <token>` (an API session) or else the session
    /// cookie (a web session). Anything not shaped like a token is no token, and costs no lookup; a request with an
    /// Authorization header is judged by that header alone.
    static func presented(in request: Request) -> (token: String, kind: AccountSession.Kind)? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            let token = parts[1].trimmingCharacters(in: .whitespaces)
            return isWellFormed(token) ? (token, .api) : nil
        }
        if let cookie = request.cookies[cookieName]?.value, isWellFormed(cookie) {
            return (cookie, .web)
        }
        return nil
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == length && token.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}
