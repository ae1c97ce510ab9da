import AsyncHTTPClient
import Foundation
import NIOCore

/// A provider's JWKS as fetched: the body and how long it may be kept (`Cache-Control: max-age`).
struct JWKSDocument: Sendable {
    var body: Data
    var maxAge: TimeInterval?
}

protocol JWKSFetching: Sendable {
    func fetch(_ url: String) async throws -> JWKSDocument
}

/// The JWKS over HTTPS with AsyncHTTPClient's shared client: `timeout` at most (5 s unless configured), 1 MiB at
/// most, 200 only.
struct HTTPJWKSFetcher: JWKSFetching {
    var timeout: TimeInterval = 5

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func fetch(_ url: String) async throws -> JWKSDocument {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1_000)))
        guard response.status == .ok else { throw Failure(description: "JWKS \(url) answered \(response.status.code)") } // catalog-exempt: for the server log, never shown
        let body = try await response.body.collect(upTo: 1 << 20)
        return JWKSDocument(body: Data(body.readableBytesView), maxAge: Self.maxAge(response.headers["Cache-Control"]))
    }

    /// `max-age` from Cache-Control values ("public, max-age=21600, must-revalidate"); 0 for no-store/no-cache; nil
    /// when absent or unreadable.
    static func maxAge(_ values: [String]) -> TimeInterval? {
        var result: TimeInterval?
        for directive in values.flatMap({ $0.split(separator: ",") }) {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch parts.first {
            case "no-store", "no-cache": return 0
            case "max-age":
                if parts.count == 2, let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0 {
                    result = TimeInterval(seconds)
                }
            default: continue
            }
        }
        return result
    }
}
