import Crypto
import Foundation

/// A session's secret as the account store knows it: the token is 256 random bits in base64url, handed to the
/// client once; the store keeps only its SHA-256 (`AccountSession.tokenHash`, lowercase hex), so a copy of the
/// database signs nobody in. The server's `SessionToken` (cookies, headers) and seeded sessions both make and hash
/// tokens here, so a seeded token is one the server accepts.
public enum SessionSecret {
    /// 32 bytes in base64url without padding.
    public static let length = 43
    /// Sessions last 30 days from sign-in (using one does not extend it): the server's and seeded ones alike.
    public static let lifetime: TimeInterval = 30 * 24 * 60 * 60

    /// `SystemRandomNumberGenerator` reads the kernel's CSPRNG (getrandom) on Linux and arc4random on Darwin.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Lowercase hex of SHA-256, written byte by byte (every signed-in request computes one).
    public static func hash(_ token: String) -> String {
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
}
