import Crypto
import CryptoExtras
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import Synchronization
import WDietServer
import WDietSQLite
import WDietTestSupport

/// An identity provider played by the test: RSA keys it generates, ID tokens it signs, and its JWKS served over real
/// HTTP by a tiny Hummingbird app on a random port.
final class FakeIdentityProvider: Sendable {
    struct SigningKey: Sendable {
        var id: String
        var key: JWTKit.Insecure.RSA.PrivateKey
    }

    let issuer: String
    /// The keys the JWKS publishes.
    private let published: Mutex<[SigningKey]>
    private let cacheControl: Mutex<String>
    private let requests = Atomic<Int>(0)

    init(issuer: String, keys: [SigningKey], cacheControl: String = "public, max-age=600") {
        self.issuer = issuer
        published = Mutex(keys)
        self.cacheControl = Mutex(cacheControl)
    }

    static func newKey(id: String) throws -> SigningKey {
        SigningKey(id: id, key: try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)))
    }

    var jwksRequests: Int { requests.load(ordering: .relaxed) }

    func publish(_ keys: [SigningKey]) {
        published.withLock { $0 = keys }
    }

    /// `{"keys": [...]}` as Apple and Google publish it.
    func jwksJSON() throws -> String {
        let keys = try published.withLock { $0 }.map { signing -> [String: String] in
            let primitives = try signing.key.publicKey.getKeyPrimitives()
            return ["kty": "RSA", "kid": signing.id, "use": "sig", "alg": "RS256",
                    "n": base64URL(primitives.modulus), "e": base64URL(primitives.publicExponent)]
        }
        let data = try JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `body` with the JWKS served at the returned address.
    func serving<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.get("/keys") { _, _ in
            self.requests.add(1, ordering: .relaxed)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: self.cacheControl.withLock { $0 }],
                body: .init(byteBuffer: ByteBuffer(string: try self.jwksJSON()))
            )
        }
        var logger = Logger(label: "fake-jwks")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        return try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port!)/keys")
        }
    }

    /// A token signed with `key` (RS256, its id in the header unless `kid` says otherwise).
    func sign(_ claims: [String: any Sendable], with key: SigningKey, kid: String? = nil) async throws -> String {
        let header = ["alg": "RS256", "typ": "JWT", "kid": kid ?? key.id]
        let signingInput = try segment(header) + "." + segment(claims)
        let signature = try key.key.backingSignature(for: Data(signingInput.utf8))
        return signingInput + "." + base64URL(signature)
    }

    /// A token with any header and a signature made by `signature` (nil: empty, as `alg: none` has it).
    func unsigned(_ claims: [String: any Sendable], header: [String: String], signature: Data? = nil) throws -> String {
        try segment(header) + "." + segment(claims) + "." + (signature.map(base64URL) ?? "")
    }

    private func segment(_ object: [String: any Sendable]) throws -> String {
        base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}

extension JWTKit.Insecure.RSA.PrivateKey {
    /// RS256: RSASSA-PKCS1-v1_5 over SHA-256, made with swift-crypto directly (not with the code under test).
    func backingSignature(for data: Data) throws -> Data {
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: pemRepresentation)
        return try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation
    }
}

func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
}

/// The server with Sign in with Apple and Google configured against local JWKS addresses.
struct SignInTestApp {
    static let appleClientId = "com.example.wdiet"
    static let googleClientId = "1234-wdiet.apps.googleusercontent.com"

    let services: AppServices
    let clock: TestClock
    let app: any ApplicationProtocol

    init(appleJWKS: String = "http://127.0.0.1:9/keys", googleJWKS: String = "http://127.0.0.1:9/keys", configured: Bool = true) throws {
        let clock = TestClock(Fixtures.utc("2026-03-01T09:00:00Z"))
        services = AppServices(database: try AppDatabase.inMemory(), now: clock.closure)
        self.clock = clock
        var logger = Logger(label: "wdiet-test")
        logger.logLevel = .critical
        var configuration = ServerConfiguration(
            bcryptCost: 4, trustForwardedFor: true,
            appleClientId: configured ? Self.appleClientId : nil, googleClientId: configured ? Self.googleClientId : nil,
            appleJWKSURL: appleJWKS, googleJWKSURL: googleJWKS
        )
        // The test's JWKS server shares the machine with the whole parallel suite: 5 s was missed under load.
        configuration.jwksTimeout = 60
        app = buildApplication(services: services, configuration: configuration, logger: logger)
    }

    /// Claims a good Apple token carries at the test clock's now; `overrides` replace some, or remove them (`removedClaim`).
    func appleClaims(sub: String = "001234.apple-subject", nonce: String = "raw-nonce-1", email: String? = nil, _ overrides: [String: any Sendable] = [:]) -> [String: any Sendable] {
        let now = Int(clock.now.timeIntervalSince1970)
        var claims: [String: any Sendable] = [
            "iss": "https://appleid.apple.com", "aud": Self.appleClientId, "sub": sub,
            "iat": now - 10, "exp": now + 600, "nonce": sha256Hex(nonce), "nonce_supported": true,
        ]
        if let email { claims["email"] = email; claims["email_verified"] = "true" }
        return apply(overrides, to: claims)
    }

    func googleClaims(sub: String = "110169484474386276334", nonce: String = "raw-nonce-1", email: String? = nil, _ overrides: [String: any Sendable] = [:]) -> [String: any Sendable] {
        let now = Int(clock.now.timeIntervalSince1970)
        var claims: [String: any Sendable] = [
            "iss": "https://accounts.google.com", "aud": Self.googleClientId, "azp": Self.googleClientId, "sub": sub,
            "iat": now - 10, "exp": now + 3_600, "nonce": nonce,
        ]
        if let email { claims["email"] = email; claims["email_verified"] = true }
        return apply(overrides, to: claims)
    }

    private func apply(_ overrides: [String: any Sendable], to claims: [String: any Sendable]) -> [String: any Sendable] {
        var claims = claims
        for (key, value) in overrides {
            claims[key] = (value as? String) == removedClaim ? nil : value
        }
        return claims
    }
}

/// An override value that removes the claim.
let removedClaim = "\u{0}removed"

/// `{"idToken": …, "nonce": …}` (either left out when nil), plus any extra string fields.
func idTokenJSON(_ token: String?, nonce: String?, extra: [String: String] = [:]) -> String {
    var object: [String: String] = extra
    if let token { object["idToken"] = token }
    if let nonce { object["nonce"] = nonce }
    let data = try! JSONEncoder().encode(object)
    return String(decoding: data, as: UTF8.self)
}
