import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt at the configured cost, run on NIO's thread pool: a hash at cost 12 takes a quarter of a second, which
/// would otherwise hold up one of the few threads that serve every request.
///
/// bcrypt reads at most 72 bytes and stops at a NUL byte, so the password goes in as the base64 of its SHA-256
/// (44 ASCII bytes): every character of a 128-character password counts, and one with a NUL in it is not
/// shortened. The SHA-256 is of a prefixed password, so that unsalted SHA-256 hashes leaked elsewhere cannot be
/// tried against these as they are. Passwords are compared in Unicode NFC, so an "é" typed on one keyboard
/// matches the "é" another composes.
final class PasswordHasher: Sendable {
    let cost: UInt8
    private let threadPool: NIOThreadPool
    private let dummy = DummyHash()
    private let checks = Atomic<Int>(0)
    private let hashes = Atomic<Int>(0)

    /// How many password checks ran (a `verify`, or the first `verifyWithoutAccount`, whose hash costs the same):
    /// tests see with it that an unknown email and a wrong password both cost one bcrypt run.
    var checkCount: Int { checks.load(ordering: .relaxed) }
    /// How many new hashes were made (`hash`): a sign-up with a taken email makes one, as with a free one.
    var hashCount: Int { hashes.load(ordering: .relaxed) }

    /// `cost` is held to bcrypt's 4...31 (`ServerConfiguration` says what production uses).
    init(cost: UInt8, threadPool: NIOThreadPool = .singleton) {
        self.cost = min(max(cost, 4), 31)
        self.threadPool = threadPool
    }

    func hash(_ password: String) async throws -> String {
        hashes.add(1, ordering: .relaxed)
        let input = Self.bcryptInput(password), cost = cost
        return try await threadPool.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        checks.add(1, ordering: .relaxed)
        let input = Self.bcryptInput(password)
        return try await threadPool.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    /// The work of a `verify` that cannot succeed, for an email without an account: a sign-in takes as long
    /// whether or not the email is known, so timing does not tell which.
    func verifyWithoutAccount(_ password: String) async throws {
        if let hash = dummy.value {
            _ = try await verify(password, hash: hash)
        } else {
            // Making the dummy hash is the same bcrypt work as checking against it, so even the first call
            // takes as long as a real check.
            checks.add(1, ordering: .relaxed)
            dummy.value = try await hash(SessionToken.generate())
        }
    }

    static func bcryptInput(_ password: String) -> String {
        let normalized = password.precomposedStringWithCanonicalMapping
        let digest = SHA256.hash(data: Data(("w-diet password v1:" + normalized).utf8)) // catalog-exempt: a hash's fixed prefix
        return Data(digest).base64EncodedString()
    }

    /// A hash at the configured cost of a password nobody knows, made on first use.
    private final class DummyHash: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?

        var value: String? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
