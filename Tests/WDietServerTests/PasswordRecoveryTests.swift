import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WDietCore
@testable import WDietServer
import WDietSQLite
import WDietTestSupport

/// A tiny SMTP server on loopback that accepts every message and keeps it: what a mail relay would be given.
final class SMTPSink: @unchecked Sendable {
    struct Received: Sendable {
        var from: String
        var to: String
        var data: String
    }

    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var messages: [Received] = []
    private var connectionCount = 0
    /// Greetings for the first connections instead of "220", each followed by closing the connection (a relay busy
    /// for now, "421 …", or refusing for good, "554 …").
    private var refusals: [String]

    init(refusingFirst refusals: [String] = []) throws {
        self.refusals = refusals
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(fd, raw, length) == 0, listen(fd, 8) == 0, getsockname(fd, raw, &length) == 0 else {
                    throw SMTPFailure(description: "the sink could not listen")
                }
            }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var received: [Received] { lock.withLock { messages } }
    /// Connections accepted so far.
    var connections: Int { lock.withLock { connectionCount } }

    /// The messages once `count` have arrived (the server sends in the background), or what arrived in two minutes.
    func waitFor(_ count: Int) async -> [Received] {
        // Up to two minutes: it returns as soon as the mails are in, and 10 s was once too short with perf recording
        // the whole suite at load 20.
        for _ in 0..<2_400 where received.count < count { try? await Task.sleep(for: .milliseconds(50)) }
        return received
    }

    /// Each connection on a thread of its own, as a relay takes them: served one after another, a second send's
    /// greeting waited on the first send's whole conversation, and on a loaded machine (CI, stop 33) that outlasted
    /// the mailer's 10 s limit and the email was lost.
    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in
                handle(connection)
                close(connection)
            }
            thread.start()
        }
    }

    private func handle(_ fd: Int32) {
        var buffer = [UInt8]()
        func send(_ line: String) { _ = line.utf8CString.dropLast().withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        func readLine() -> String? {
            while true {
                if let end = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
                    buffer.removeFirst(end + 1)
                    return line
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                buffer.append(contentsOf: chunk[..<count])
            }
        }
        let refusal: String? = lock.withLock {
            connectionCount += 1
            return refusals.isEmpty ? nil : refusals.removeFirst()
        }
        if let refusal {
            send(refusal + "\r\n")
            return
        }
        send("220 sink.test ESMTP\r\n")
        var from = "", to = ""
        while let line = readLine() {
            let upper = line.uppercased()
            if upper.hasPrefix("EHLO") {
                send("250-sink.test\r\n250 8BITMIME\r\n")
            } else if upper.hasPrefix("MAIL FROM:") {
                from = String(line.dropFirst(10)); send("250 OK\r\n")
            } else if upper.hasPrefix("RCPT TO:") {
                to = String(line.dropFirst(8)); send("250 OK\r\n")
            } else if upper == "DATA" {
                send("354 go ahead\r\n")
                var lines: [String] = []
                while let dataLine = readLine(), dataLine != "." { lines.append(dataLine.hasPrefix("..") ? String(dataLine.dropFirst()) : dataLine) }
                lock.withLock { messages.append(Received(from: from, to: to, data: lines.joined(separator: "\n"))) }
                send("250 queued\r\n")
            } else if upper == "QUIT" {
                send("221 bye\r\n"); return
            } else {
                send("502 not here\r\n")
            }
        }
    }
}

/// Issue 21 item 11: "Forgot password?" by email, against the SMTP sink on loopback.
@Suite("Auth: password recovery by email")
struct PasswordRecoveryTests {
    struct App {
        let services: AppServices
        let clock: TestClock
        let app: any ApplicationProtocol
    }

    static func app(sink: SMTPSink?) throws -> App {
        let clock = TestClock(Fixtures.utc("2026-03-01T09:00:00Z"))
        let services = AppServices(database: try AppDatabase.inMemory(), now: clock.closure)
        var configuration = ServerConfiguration(bcryptCost: 4, trustForwardedFor: true)
        if let sink {
            configuration.smtp = SMTPSettings(host: "127.0.0.1", port: sink.port, from: "no-reply@diet.example.org")
            configuration.publicURL = "https://diet.example.org/"
        }
        var logger = Logger(label: "wdiet-test")
        logger.logLevel = .critical
        return App(services: services, clock: clock, app: buildApplication(services: services, configuration: configuration, logger: logger))
    }

    static func requestJSON(_ email: String) -> String {
        String(decoding: try! JSONEncoder().encode(["email": email]), as: UTF8.self)
    }

    static func confirmJSON(_ token: String, _ password: String) -> String {
        String(decoding: try! JSONEncoder().encode(["token": token, "newPassword": password]), as: UTF8.self)
    }

    /// The token in the link of a received email.
    static func token(in message: SMTPSink.Received) -> String? {
        guard let range = message.data.range(of: "https://diet.example.org/reset-password?token=") else { return nil }
        return String(message.data[range.upperBound...].prefix(SessionToken.length))
    }

    @Test("the same answer for a known and an unknown email; only the known one gets a link, which works once and ends every session")
    func resetJourney() async throws {
        let sink = try SMTPSink()
        let t = try Self.app(sink: sink)
        try await t.app.test(.router) { client in
            let ana = try await client.register("ana@example.com")
            let known = try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("ana@example.com"))
            let unknown = try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("nobody@example.com"))
            #expect(known.status == .accepted && unknown.status == .accepted)
            #expect(String(buffer: known.body) == String(buffer: unknown.body).replacingOccurrences(of: "nobody@", with: "ana@"))
            let messages = await sink.waitFor(1)
            try await Task.sleep(for: .milliseconds(200))
            #expect(sink.received.count == 1)
            let message = try #require(messages.first)
            #expect(message.to == "<ana@example.com>")
            #expect(message.from == "<no-reply@diet.example.org>")
            #expect(message.data.contains("Subject: =?UTF-8?B?" + Data("Reset your w-diet password".utf8).base64EncodedString() + "?="))
            #expect(message.data.contains("open this link within 30 minutes"))
            let token = try #require(Self.token(in: message))
            // The store keeps only the token's hash.
            #expect(try await t.services.passwords.resetTokenUser(tokenHash: token, now: t.clock.now) == nil)
            #expect(try await t.services.passwords.resetTokenUser(tokenHash: SessionToken.hash(token), now: t.clock.now) == ana.user.id)

            let common = try await client.send(.post, "/api/v1/auth/password-reset/confirm", body: Self.confirmJSON(token, "Password1"))
            #expect(common.status == .unprocessableContent)
            #expect(common.apiError?.fields?["newPassword"] == PasswordPolicy.commonPasswordMessage)

            let reset = try await client.send(.post, "/api/v1/auth/password-reset/confirm", body: Self.confirmJSON(token, "battery staple"))
            #expect(reset.status == .ok, "\(String(buffer: reset.body))")
            let signedIn = try reset.json(SignedInBody.self)
            #expect(signedIn.user.id == ana.user.id)
            #expect(try await client.me(ana.token).status == .unauthorized)
            #expect(try await client.me(signedIn.token).status == .ok)
            #expect(try await client.login("ana@example.com", "correct horse").status == .unauthorized)
            #expect(try await client.login("ana@example.com", "battery staple").status == .ok)

            let again = try await client.send(.post, "/api/v1/auth/password-reset/confirm", body: Self.confirmJSON(token, "another phrase"))
            #expect(again.status == .badRequest)
            #expect(again.apiError?.code == "reset_link_invalid")
        }
    }

    @Test("a link stops working after 30 minutes")
    func expires() async throws {
        let sink = try SMTPSink()
        let t = try Self.app(sink: sink)
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            _ = try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("ana@example.com"))
            let token = try #require(await sink.waitFor(1).first.flatMap(Self.token(in:)))
            t.clock.advance(seconds: 30 * 60)
            let late = try await client.send(.post, "/api/v1/auth/password-reset/confirm", body: Self.confirmJSON(token, "battery staple"))
            #expect(late.apiError?.code == "reset_link_invalid")
            #expect(try await client.login("ana@example.com", "correct horse").status == .ok)
        }
    }

    @Test("3 emails an hour to one address (then the same answer and no email); 10 requests an hour from one client address")
    func limits() async throws {
        let sink = try SMTPSink()
        let t = try Self.app(sink: sink)
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            let from: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "10.0.0.1, 203.0.113.7"]
            for _ in 1...5 {
                #expect(try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("ana@example.com"), headers: from).status == .accepted)
            }
            _ = await sink.waitFor(3)
            try await Task.sleep(for: .milliseconds(300))
            #expect(sink.received.count == 3)
            for index in 6...10 {
                #expect(try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("u\(index)@example.com"), headers: from).status == .accepted)
            }
            let refused = try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("ana@example.com"), headers: from)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "3600")
        }
    }

    @Test("a reset lets the owner in at once though guessers filled the account's counter")
    func resetClearsAccountThrottle() async throws {
        let sink = try SMTPSink()
        let t = try Self.app(sink: sink)
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            for index in 1...20 { _ = try await client.login("ana@example.com", "wrong horse", from: "203.0.113.\(index)") }
            #expect(try await client.login("ana@example.com", "correct horse", from: "198.51.100.9").status == .tooManyRequests)
            _ = try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("ana@example.com"))
            let token = try #require(await sink.waitFor(1).first.flatMap(Self.token(in:)))
            #expect(try await client.send(.post, "/api/v1/auth/password-reset/confirm", body: Self.confirmJSON(token, "battery staple")).status == .ok)
            #expect(try await client.login("ana@example.com", "battery staple", from: "198.51.100.9").status == .ok)
        }
    }

    @Test("without SMTP settings: 503 recovery_unavailable, and the page says to ask the administrator")
    func unavailable() async throws {
        let t = try Self.app(sink: nil)
        try await t.app.test(.router) { client in
            let response = try await client.send(.post, "/api/v1/auth/password-reset", body: Self.requestJSON("ana@example.com"))
            #expect(response.status == .serviceUnavailable)
            #expect(response.apiError?.code == "recovery_unavailable")
            let page = try await client.execute(uri: "/forgot-password", method: .get)
            #expect(String(buffer: page.body).contains("isn&#39;t set up on this server") || String(buffer: page.body).contains("isn't set up on this server"))
        }
    }

    @Test("the SMTP client speaks to the sink: dot-stuffing, UTF-8 subject, German copy")
    func smtpClient() async throws {
        let sink = try SMTPSink()
        let mailer = SMTPMailer(settings: SMTPSettings(host: "127.0.0.1", port: sink.port, from: "no-reply@example.org"))
        let message = PasswordRecovery.message(to: "jonas@example.de", link: "https://x.example/reset-password?token=abc", language: .german)
        try await mailer.send(MailMessage(to: message.to, subject: message.subject, body: message.body + "\n.\n..x"))
        let received = try #require(await sink.waitFor(1).first)
        #expect(received.to == "<jonas@example.de>")
        #expect(received.data.contains("Öffne diesen Link innerhalb von 30 Minuten"))
        #expect(received.data.hasSuffix("\n.\n..x"))
        await #expect(throws: SMTPFailure.self) {
            try await mailer.send(MailMessage(to: "a@example.org>\r\nRCPT TO:<b@example.org", subject: "x", body: "y"))
        }
    }

    static func mailer(_ sink: SMTPSink, retryDelays: [TimeInterval]) -> SMTPMailer {
        var settings = SMTPSettings(host: "127.0.0.1", port: sink.port, from: "no-reply@example.org")
        settings.retryDelays = retryDelays
        return SMTPMailer(settings: settings)
    }

    @Test("a relay busy for now (421) is tried again after each wait; the email goes out on the third connection")
    func retriesWhileBusy() async throws {
        let sink = try SMTPSink(refusingFirst: ["421 4.3.2 sink.test busy, try again later", "421 4.3.2 still busy"])
        try await Self.mailer(sink, retryDelays: [0.05, 0.05]).send(MailMessage(to: "ana@example.com", subject: "Reset", body: "link"))
        #expect(sink.connections == 3)
        #expect(sink.received.map(\.to) == ["<ana@example.com>"])
    }

    @Test("still busy after every wait: the failure says how often it was tried; a refusal for good (554) is not tried again")
    func retriesEnd() async throws {
        let busy = try SMTPSink(refusingFirst: Array(repeating: "421 4.3.2 busy", count: 5))
        let failure = await #expect(throws: SMTPFailure.self) {
            try await Self.mailer(busy, retryDelays: [0.05, 0.05]).send(MailMessage(to: "ana@example.com", subject: "Reset", body: "link"))
        }
        #expect(failure?.description == "the SMTP server refused for now the greeting: 421 4.3.2 busy (tried 3 times)")
        #expect(busy.connections == 3)
        #expect(busy.received.isEmpty)

        let closed = try SMTPSink(refusingFirst: ["554 5.7.1 sink.test does not take mail from you"])
        let refusal = await #expect(throws: SMTPFailure.self) {
            try await Self.mailer(closed, retryDelays: [0.05, 0.05]).send(MailMessage(to: "ana@example.com", subject: "Reset", body: "link"))
        }
        #expect(refusal?.description == "the SMTP server refused the greeting: 554 5.7.1 sink.test does not take mail from you")
        #expect(closed.connections == 1)
    }
}
