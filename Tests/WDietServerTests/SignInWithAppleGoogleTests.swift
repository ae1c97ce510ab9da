import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer

/// Sign in with Apple and Google against a provider the test plays: its keys, its tokens, its JWKS over real HTTP.
@Suite("Sign in with Apple and Google")
struct SignInWithAppleGoogleTests {
    static func apple() throws -> (FakeIdentityProvider, FakeIdentityProvider.SigningKey) {
        let key = try FakeIdentityProvider.newKey(id: "apple-key-1")
        return (FakeIdentityProvider(issuer: "https://appleid.apple.com", keys: [key]), key)
    }

    @Test("a good Apple token makes one account per (issuer, subject) and signs it in again")
    func appleSignIn() async throws {
        let (provider, key) = try Self.apple()
        try await provider.serving { jwks in
            let t = try SignInTestApp(appleJWKS: jwks)
            try await t.app.test(.router) { client in
                let token = try await provider.sign(t.appleClaims(email: "ana@privaterelay.appleid.com"), with: key)
                let first = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"))
                #expect(first.status == .created, "\(String(buffer: first.body))")
                let created = try first.json(SignedInBody.self)
                #expect(created.user.email == "ana@privaterelay.appleid.com")
                #expect(try await client.me(created.token).status == .ok)

                let again = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"))
                #expect(again.status == .ok)
                let signedIn = try again.json(SignedInBody.self)
                #expect(signedIn.user.id == created.user.id)
                #expect(signedIn.token != created.token)

                let other = try await provider.sign(t.appleClaims(sub: "005678.someone-else"), with: key)
                let second = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(other, nonce: "raw-nonce-1"))
                #expect(second.status == .created)
                let withoutEmail = try second.json(SignedInBody.self)
                #expect(withoutEmail.user.id != created.user.id)
                // No email shared, yet no guest: the account signs in with Apple.
                #expect(withoutEmail.user.email == nil && withoutEmail.user.isGuest == false)
                #expect(try await client.me(withoutEmail.token).json(AccountUserBody.self).isGuest == false)
                #expect(try await t.services.identities.identities(userId: created.user.id).map(\.subject) == ["001234.apple-subject"])
            }
        }
    }

    @Test("Google's two issuer spellings are one identity; its nonce is compared as sent")
    func googleSignIn() async throws {
        let key = try FakeIdentityProvider.newKey(id: "google-key-1")
        let provider = FakeIdentityProvider(issuer: "https://accounts.google.com", keys: [key])
        try await provider.serving { jwks in
            let t = try SignInTestApp(googleJWKS: jwks)
            try await t.app.test(.router) { client in
                let first = try await provider.sign(t.googleClaims(), with: key)
                let created = try await client.send(.post, "/api/v1/auth/google", body: idTokenJSON(first, nonce: "raw-nonce-1"))
                #expect(created.status == .created)
                let bare = try await provider.sign(t.googleClaims(["iss": "accounts.google.com"]), with: key)
                let again = try await client.send(.post, "/api/v1/auth/google", body: idTokenJSON(bare, nonce: "raw-nonce-1"))
                #expect(again.status == .ok)
                #expect(try again.json(SignedInBody.self).user.id == created.json(SignedInBody.self).user.id)

                // Google puts the nonce itself in the token, not its hash.
                let hashed = try await provider.sign(t.googleClaims(["nonce": sha256Hex("raw-nonce-1")]), with: key)
                let refused = try await client.send(.post, "/api/v1/auth/google", body: idTokenJSON(hashed, nonce: "raw-nonce-1"))
                #expect(refused.status == .unauthorized)
            }
        }
    }

    @Test("each forgery is refused with 401 invalid_id_token")
    func forgeries() async throws {
        let (provider, key) = try Self.apple()
        let attacker = try FakeIdentityProvider.newKey(id: "apple-key-1")
        try await provider.serving { jwks in
            let t = try SignInTestApp(appleJWKS: jwks)
            let now = Int(t.clock.now.timeIntervalSince1970)
            let good = t.appleClaims()
            let publicPEM = Data(key.key.publicKey.pemRepresentation.utf8)
            let cases: [(String, String)] = [
                ("wrong aud", try await provider.sign(t.appleClaims(["aud": "com.attacker.app"]), with: key)),
                ("wrong iss", try await provider.sign(t.appleClaims(["iss": "https://appleid.apple.com.evil.example"]), with: key)),
                ("Google's iss on an Apple token", try await provider.sign(t.appleClaims(["iss": "https://accounts.google.com"]), with: key)),
                ("expired", try await provider.sign(t.appleClaims(["exp": now - 120, "iat": now - 720]), with: key)),
                ("no exp", try await provider.sign(t.appleClaims(["exp": removedClaim]), with: key)),
                ("not yet valid", try await provider.sign(t.appleClaims(["nbf": now + 600]), with: key)),
                ("issued in the future", try await provider.sign(t.appleClaims(["iat": now + 600, "exp": now + 1_200]), with: key)),
                ("alg none", try provider.unsigned(good, header: ["alg": "none", "kid": key.id])),
                ("alg none, no signature, no kid", try provider.unsigned(good, header: ["alg": "none"])),
                ("HS256 keyed with the public key", try provider.unsigned(good, header: ["alg": "HS256", "kid": key.id], signature: hmac(good, key: publicPEM))),
                ("unknown kid", try await provider.sign(good, with: key, kid: "not-published")),
                ("attacker's key, same kid", try await provider.sign(good, with: attacker)),
                ("wrong nonce", try await provider.sign(t.appleClaims(nonce: "another-nonce"), with: key)),
                ("no nonce in the token", try await provider.sign(t.appleClaims(["nonce": removedClaim]), with: key)),
                ("raw nonce where Apple hashes it", try await provider.sign(t.appleClaims(["nonce": "raw-nonce-1"]), with: key)),
                ("tampered payload", try await tampered(provider.sign(good, with: key), claims: t.appleClaims(sub: "victim"))),
                ("not a JWT", "abc.def"),
            ]
            try await t.app.test(.router) { client in
                for (name, token) in cases {
                    let response = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"))
                    #expect(response.status == .unauthorized, "\(name): \(String(buffer: response.body))")
                    #expect(response.apiError?.code == "invalid_id_token", "\(name)")
                    #expect(response.apiError?.message == "We couldn't verify your sign-in with Apple. Please try again.")
                }
                // The control: the same claims, properly signed, sign in.
                let control = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(try await provider.sign(good, with: key), nonce: "raw-nonce-1"))
                #expect(control.status == .created)
                #expect(try await t.services.identities.user(issuer: "https://appleid.apple.com", subject: "victim") == nil)
            }
        }
    }

    @Test("a missing nonce or token in the request is a 422 naming it")
    func missingFields() async throws {
        let (provider, key) = try Self.apple()
        try await provider.serving { jwks in
            let t = try SignInTestApp(appleJWKS: jwks)
            try await t.app.test(.router) { client in
                let token = try await provider.sign(t.appleClaims(), with: key)
                let noNonce = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: nil))
                #expect(noNonce.status == .unprocessableContent)
                #expect(noNonce.apiError?.fields?["nonce"] == "The nonce is missing")
                let empty = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: ""))
                #expect(empty.status == .unprocessableContent)
                let noToken = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(nil, nonce: "raw-nonce-1"))
                #expect(noToken.apiError?.fields?["idToken"] == "The ID token is missing")
            }
        }
    }

    @Test("a verified email that has an account is not signed in: 409 link_required, linked only with the password")
    func linkRequiresPassword() async throws {
        let (provider, key) = try Self.apple()
        try await provider.serving { jwks in
            let t = try SignInTestApp(appleJWKS: jwks)
            try await t.app.test(.router) { client in
                let account = try await client.register("ana@example.com")
                let token = try await provider.sign(t.appleClaims(email: "Ana@Example.com"), with: key)

                let signIn = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"))
                #expect(signIn.status == .conflict)
                #expect(signIn.apiError?.code == "link_required")
                #expect(signIn.apiError?.message == "You already have a w-diet account with this email. Sign in with your password once to connect Apple.")

                let wrong = try await client.send(.post, "/api/v1/auth/link/apple", body: idTokenJSON(
                    token, nonce: "raw-nonce-1", extra: ["email": "ana@example.com", "password": "wrong horse"]))
                #expect(wrong.status == .unauthorized)
                #expect(wrong.apiError?.code == "invalid_credentials")
                #expect(try await t.services.identities.identities(userId: account.user.id).isEmpty)

                let linked = try await client.send(.post, "/api/v1/auth/link/apple", body: idTokenJSON(
                    token, nonce: "raw-nonce-1", extra: ["email": "ana@example.com", "password": "correct horse"]))
                #expect(linked.status == .ok, "\(String(buffer: linked.body))")
                #expect(try linked.json(SignedInBody.self).user.id == account.user.id)

                let afterwards = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"))
                #expect(afterwards.status == .ok)
                #expect(try afterwards.json(SignedInBody.self).user.id == account.user.id)
            }
        }
    }

    @Test("signed in, linking asks for the account's password too; a guest links with its session")
    func linkWhileSignedIn() async throws {
        let (provider, key) = try Self.apple()
        try await provider.serving { jwks in
            let t = try SignInTestApp(appleJWKS: jwks)
            try await t.app.test(.router) { client in
                let account = try await client.register("ana@example.com")
                let token = try await provider.sign(t.appleClaims(), with: key)
                let noPassword = try await client.send(.post, "/api/v1/auth/link/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"), token: account.token)
                #expect(noPassword.status == .unprocessableContent)
                let withPassword = try await client.send(.post, "/api/v1/auth/link/apple", body: idTokenJSON(
                    token, nonce: "raw-nonce-1", extra: ["password": "correct horse"]), token: account.token)
                #expect(withPassword.status == .ok)
                #expect(try withPassword.json(SignedInBody.self).user.id == account.user.id)

                // The same identity cannot be linked to a second account.
                let guest = try await client.guest()
                let taken = try await client.send(.post, "/api/v1/auth/link/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"), token: guest.token)
                #expect(taken.status == .conflict)
                #expect(taken.apiError?.code == "identity_linked")

                let guestToken = try await provider.sign(t.appleClaims(sub: "guest-subject"), with: key)
                let guestLinked = try await client.send(.post, "/api/v1/auth/link/apple", body: idTokenJSON(guestToken, nonce: "raw-nonce-1"), token: guest.token)
                #expect(guestLinked.status == .ok)
                #expect(try guestLinked.json(SignedInBody.self).user.id == guest.user.id)
            }
        }
    }

    @Test("the JWKS is fetched once per Cache-Control max-age, again at once for an unknown kid, at most once a minute")
    func jwksCaching() async throws {
        let (provider, key) = try Self.apple()
        try await provider.serving { jwks in
            let t = try SignInTestApp(appleJWKS: jwks)
            try await t.app.test(.router) { client in
                func signIn(_ claims: [String: any Sendable], key: FakeIdentityProvider.SigningKey, kid: String? = nil) async throws -> HTTPResponse.Status {
                    let token = try await provider.sign(claims, with: key, kid: kid)
                    return try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: "raw-nonce-1")).status
                }
                #expect(try await signIn(t.appleClaims(), key: key) == .created)
                #expect(try await signIn(t.appleClaims(), key: key) == .ok)
                #expect(provider.jwksRequests == 1)

                // max-age=600: still fresh at 599 s, fetched again at 600 s.
                t.clock.advance(seconds: 599)
                #expect(try await signIn(t.appleClaims(), key: key) == .ok)
                #expect(provider.jwksRequests == 1)
                t.clock.advance(seconds: 1)
                #expect(try await signIn(t.appleClaims(), key: key) == .ok)
                #expect(provider.jwksRequests == 2)

                // Apple rotates: a token with the new key id makes the cache fetch again at once.
                t.clock.advance(seconds: 61)
                let rotated = try FakeIdentityProvider.newKey(id: "apple-key-2")
                provider.publish([key, rotated])
                #expect(try await signIn(t.appleClaims(), key: rotated) == .ok)
                #expect(provider.jwksRequests == 3)

                // Unknown key ids do not fetch again within a minute of the last fetch.
                #expect(try await signIn(t.appleClaims(), key: key, kid: "forged-1") == .unauthorized)
                #expect(try await signIn(t.appleClaims(), key: key, kid: "forged-2") == .unauthorized)
                #expect(provider.jwksRequests == 3)
                t.clock.advance(seconds: 60)
                #expect(try await signIn(t.appleClaims(), key: key, kid: "forged-3") == .unauthorized)
                #expect(provider.jwksRequests == 4)
            }
        }
    }

    @Test("without a client id the routes answer 404; an unreachable JWKS answers 503")
    func configuration() async throws {
        let off = try SignInTestApp(configured: false)
        try await off.app.test(.router) { client in
            for path in ["/api/v1/auth/apple", "/api/v1/auth/google", "/api/v1/auth/link/google"] {
                let response = try await client.send(.post, path, body: idTokenJSON("a.b.c", nonce: "n"))
                #expect(response.status == .notFound, "\(path)")
                #expect(response.apiError?.code == "provider_not_configured")
            }
            #expect(try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON("a.b.c", nonce: "n")).apiError?.message
                == "Sign in with Apple is not set up on this server.")
        }
        let (provider, key) = try Self.apple()
        let unreachable = try SignInTestApp(appleJWKS: "http://127.0.0.1:9/keys")
        try await unreachable.app.test(.router) { client in
            let token = try await provider.sign(unreachable.appleClaims(), with: key)
            let response = try await client.send(.post, "/api/v1/auth/apple", body: idTokenJSON(token, nonce: "raw-nonce-1"))
            #expect(response.status == .serviceUnavailable)
            #expect(response.apiError?.code == "provider_unavailable")
        }
    }

    @Test("Cache-Control max-age is read from the header the way providers write it")
    func maxAgeParsing() {
        #expect(HTTPJWKSFetcher.maxAge(["public, max-age=21600, must-revalidate, no-transform"]) == 21_600)
        #expect(HTTPJWKSFetcher.maxAge(["max-age=86400"]) == 86_400)
        #expect(HTTPJWKSFetcher.maxAge(["no-store"]) == 0)
        #expect(HTTPJWKSFetcher.maxAge(["public"]) == nil)
        #expect(HTTPJWKSFetcher.maxAge([]) == nil)
        #expect(HTTPJWKSFetcher.maxAge(["max-age=-5"]) == nil)
    }
}

/// HS256 over the token's signing input with `key` (the classic confusion attack keys it with the RSA public key).
private func hmac(_ claims: [String: any Sendable], key: Data) throws -> Data {
    let header = base64URL(try JSONSerialization.data(withJSONObject: ["alg": "HS256", "kid": "apple-key-1"], options: [.sortedKeys]))
    let payload = base64URL(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
    let mac = HMAC<SHA256>.authenticationCode(for: Data((header + "." + payload).utf8), using: SymmetricKey(data: key))
    return Data(mac)
}

/// The token's signature on other claims.
private func tampered(_ token: String, claims: [String: any Sendable]) throws -> String {
    let parts = token.split(separator: ".")
    let payload = base64URL(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
    return "\(parts[0]).\(payload).\(parts[2])"
}
