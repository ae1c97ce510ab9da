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

    /// Lowercase hex of SHA-256, written byte by byte (every signed-in request computes one).
    static func hash(_ token: String) -> String {
        let digest = SHA256.hash(data: Array(token.utf8))
        let hexDigits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 64) { text in
            var index = 0
            for byte in digest {
                text[index] = hexDigits[Int(byte >> 4)]
                text[index + 1] = hexDigits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }

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
