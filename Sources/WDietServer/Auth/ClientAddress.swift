import Foundation
import HTTPTypes
import Hummingbird

/// The address sign-in throttling counts a request against.
enum ClientAddress {
    /// The peer's address; behind a trusted proxy (`--trust-forwarded-for`), the last `X-Forwarded-For` entry, which
    /// the proxy appended (entries before it are whatever the client sent, and prove nothing).
    static func of(_ request: Request, remoteAddress: String?, trustForwardedFor: Bool) -> String? {
        if trustForwardedFor, let forwarded = request.headers[values: HTTPField.Name("X-Forwarded-For")!].last {
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) ?? ""
            if !last.isEmpty { return last }
        }
        return remoteAddress
    }
}
