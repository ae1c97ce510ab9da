import Crypto
import Foundation
import JWTKit
import Logging
import WDietCore

/// Checks an Apple or Google ID token the way the providers document it, before anything in it is believed:
///
/// 1. the header names RS256 (nothing else is ever accepted: not `none`, not HS256 keyed with a public key) and a
///    key id the provider's JWKS has (`JWKSCache`);
/// 2. the RS256 signature verifies with that key;
/// 3. `iss` is the provider's, `aud` is our client id (with `azp` our client id too when there are several
///    audiences), `exp` is in the future, `nbf` and `iat` are not, each with a minute's leeway for clocks;
/// 4. `nonce` is the one the client says it sent: Apple's token carries its SHA-256 (lowercase hex), Google's the
///    nonce itself. A token without one is refused, so a token minted for another app or an earlier sign-in cannot
///    be replayed here.
struct IDTokenVerifier: Sendable {
    static let leeway: TimeInterval = 60
    static let maxTokenLength = 16 * 1024

    /// Why a token was refused: logged, and seen by tests; clients get one answer for all of them.
    enum Rejection: Error, Equatable {
        case malformed, algorithm, unknownKey, signature, issuer, audience, expired, notYetValid, nonce
    }

    /// What a verified token says about the person.
    struct Identity: Sendable, Equatable {
        /// The provider's canonical issuer, whichever spelling the token used.
        var issuer: String
        var subject: String
        /// The email, normalized, only when the provider says it verified it.
        var verifiedEmail: String?
    }

    let provider: IdentityProvider
    let keys: JWKSCache
    let now: @Sendable () -> Date

    init(provider: IdentityProvider, fetcher: any JWKSFetching, now: @escaping @Sendable () -> Date) {
        self.provider = provider
        self.now = now
        keys = JWKSCache(url: provider.jwksURL, fetcher: fetcher, now: now)
    }

    func verify(_ token: String, nonce: String) async throws -> Identity {
        guard token.utf8.count <= Self.maxTokenLength else { throw Rejection.malformed }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URLDecoded(parts[0]),
              let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw Rejection.malformed }
        guard header.alg == "RS256" else { throw Rejection.algorithm }
        guard let keyId = header.kid, !keyId.isEmpty else { throw Rejection.unknownKey }
        guard let collection = try await keys.keys(for: keyId) else { throw Rejection.unknownKey }

        let claims: Claims
        do {
            claims = try await collection.verify(token, as: Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw Rejection.signature
        } catch {
            // A signature that verifies over claims we cannot read (a missing exp, a number for a string).
            throw Rejection.malformed
        }

        guard provider.issuers.contains(claims.iss.value) else { throw Rejection.issuer }
        let audiences = claims.aud.value
        guard audiences.contains(provider.clientId), audiences.count == 1 || claims.azp == provider.clientId else {
            throw Rejection.audience
        }
        let at = now()
        guard claims.exp.value.addingTimeInterval(Self.leeway) > at else { throw Rejection.expired }
        if let notBefore = claims.nbf?.value, notBefore > at.addingTimeInterval(Self.leeway) { throw Rejection.notYetValid }
        guard claims.iat.value <= at.addingTimeInterval(Self.leeway) else { throw Rejection.notYetValid }

        guard let tokenNonce = claims.nonce, !nonce.isEmpty,
              Self.constantTimeEqual(tokenNonce, provider.nonceIsHashed ? Self.sha256Hex(nonce) : nonce)
        else { throw Rejection.nonce }

        guard !claims.sub.value.isEmpty else { throw Rejection.malformed }
        let email = claims.emailVerified?.value == true ? claims.email.flatMap(AccountInput.normalizedEmail) : nil
        return Identity(issuer: provider.canonicalIssuer, subject: claims.sub.value, verifiedEmail: email)
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    private struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    /// The claims read; `exp`, `iat`, `iss`, `aud` and `sub` are required (a token without one does not decode).
    /// Time claims are checked above, against the server's clock, not in `verify(using:)`.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var nbf: NotBeforeClaim?
        var azp: String?
        var nonce: String?
        var email: String?
        /// Apple writes it as "true" or true; BoolClaim reads both.
        var emailVerified: BoolClaim?

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, iat, nbf, azp, nonce, email
            case emailVerified = "email_verified"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
