import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Testing
import WDietCore
@testable import WDietServer
import WDietSQLite
import WDietTestSupport

/// A certificate for "localhost" and 127.0.0.1, made by the `openssl` command for this test run; its own CA.
struct TestCertificate: Sendable {
    let certificateFile: String
    let keyFile: String

    static func make(names: String = "DNS:localhost,IP:127.0.0.1") async throws -> TestCertificate {
        try await OwnThread.run { try makeBlocking(names: names) }
    }

    private static func makeBlocking(names: String) throws -> TestCertificate {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-smtp-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=\(names)", "-keyout", key, "-out", certificate,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SMTPFailure(description: "openssl could not make a certificate") }
        return TestCertificate(certificateFile: certificate, keyFile: key)
    }
}

/// An SMTP server on loopback that speaks TLS: STARTTLS (offered or not) or TLS from the first byte. It keeps every
/// line it was sent, with whether its TLS handshake had completed by then, and the messages it accepted.
final class TLSSMTPSink: @unchecked Sendable {
    enum Mode: Sendable {
        case starttls, starttlsNotOffered, implicitTLS
        /// Agrees to STARTTLS and sends a forged reply after it in the same clear-text packet (CVE-2011-0411's shape).
        case starttlsInjecting
    }

    struct Line: Sendable {
        var text: String
        var afterHandshake: Bool
    }

    struct Received: Sendable {
        var from: String
        var to: String
        var data: String
        var afterHandshake: Bool
    }

    let port: Int
    private let channel: any Channel
    private let lock = NSLock()
    private var lineLog: [Line] = []
    private var messageLog: [Received] = []

    var lines: [Line] { lock.withLock { lineLog } }
    var received: [Received] { lock.withLock { messageLog } }
    /// What the client sent, credentials decoded out of AUTH (for the checks below).
    var commands: [String] { lines.map(\.text) }

    init(mode: Mode, certificate: TestCertificate, authMechanisms: String = "PLAIN LOGIN") async throws {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificateFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.keyFile, format: .pem)))
        let context = try NIOSSLContext(configuration: configuration)
        let box = Box()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let session = SinkSession(mode: mode, tls: context, authMechanisms: authMechanisms, sink: box)
                    if mode == .implicitTLS {
                        try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try child.pipeline.syncOperations.addHandler(session)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        self.channel = channel
        port = channel.localAddress?.port ?? 0
        box.sink = self
    }

    func stop() async {
        try? await channel.close()
    }

    fileprivate func log(_ line: String, afterHandshake: Bool) {
        lock.withLock { lineLog.append(Line(text: line, afterHandshake: afterHandshake)) }
    }

    fileprivate func accept(_ message: Received) {
        lock.withLock { messageLog.append(message) }
    }

    /// The messages once `count` have arrived (the server sends in the background), or what arrived in 10 s.
    func waitFor(_ count: Int) async -> [Received] {
        for _ in 0..<200 where received.count < count { try? await Task.sleep(for: .milliseconds(50)) }
        return received
    }

    fileprivate final class Box: @unchecked Sendable {
        weak var sink: TLSSMTPSink?
    }

    /// One client's conversation, on its channel's event loop.
    private final class SinkSession: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let mode: Mode
        let tls: NIOSSLContext
        let authMechanisms: String
        let sink: Box
        var buffer = ByteBuffer()
        var handshakeDone = false
        var inData = false
        var loginStep = 0
        var dataLines: [String] = []
        var from = "", to = ""

        init(mode: Mode, tls: NIOSSLContext, authMechanisms: String, sink: Box) {
            self.mode = mode
            self.tls = tls
            self.authMechanisms = authMechanisms
            self.sink = sink
        }

        func channelActive(context: ChannelHandlerContext) {
            // With implicit TLS the greeting waits for the handshake (NIOSSL holds writes until then).
            send("220 sink.test ESMTP", context: context)
            context.fireChannelActive()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted = event as? TLSUserEvent { handshakeDone = true }
            context.fireUserInboundEventTriggered(event)
        }

        func send(_ line: String, context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: line + "\r\n")), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            buffer.writeBuffer(&bytes)
            while let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer.readBytes(length: newline - buffer.readerIndex + 1) ?? []
                while let last = line.last, last == 10 || last == 13 { line.removeLast() }
                handle(String(decoding: line, as: UTF8.self), context: context)
            }
        }

        func handle(_ line: String, context: ChannelHandlerContext) {
            if inData {
                if line == "." {
                    inData = false
                    sink.sink?.accept(Received(from: from, to: to, data: dataLines.joined(separator: "\n"), afterHandshake: handshakeDone))
                    dataLines = []
                    send("250 queued", context: context)
                } else {
                    dataLines.append(line.hasPrefix("..") ? String(line.dropFirst()) : line)
                }
                return
            }
            if loginStep > 0 {
                sink.sink?.log("AUTH LOGIN " + String(decoding: Data(base64Encoded: line) ?? Data(), as: UTF8.self), afterHandshake: handshakeDone)
                loginStep += 1
                send(loginStep == 2 ? "334 UGFzc3dvcmQ6" : "235 welcome", context: context)
                if loginStep == 3 { loginStep = 0 }
                return
            }
            let upper = line.uppercased()
            if upper.hasPrefix("AUTH PLAIN ") {
                let decoded = String(decoding: Data(base64Encoded: String(line.dropFirst(11))) ?? Data(), as: UTF8.self)
                sink.sink?.log("AUTH PLAIN " + decoded.replacingOccurrences(of: "\0", with: "|"), afterHandshake: handshakeDone)
            } else {
                sink.sink?.log(line, afterHandshake: handshakeDone)
            }
            let tlsOn = handshakeDone || mode == .implicitTLS
            if upper.hasPrefix("EHLO") {
                var offers = ["sink.test", "8BITMIME"]
                if mode == .starttls || mode == .starttlsInjecting, !tlsOn { offers.append("STARTTLS") }
                // Offered in clear text too when STARTTLS is not: a client must not take the bait.
                if tlsOn || mode == .starttlsNotOffered { offers.append("AUTH \(authMechanisms)") }
                for (index, offer) in offers.enumerated() { send("250\(index == offers.count - 1 ? " " : "-")\(offer)", context: context) }
            } else if upper == "STARTTLS", mode == .starttlsInjecting {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "220 go ahead\r\n250-sink.test\r\n250 AUTH PLAIN\r\n")), promise: nil)
                try? context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
            } else if upper == "STARTTLS", mode == .starttls, !tlsOn {
                send("220 go ahead", context: context)
                // The 220 has passed down the pipeline in clear text; from here on, TLS.
                try? context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
            } else if upper.hasPrefix("AUTH PLAIN ") {
                send("235 welcome", context: context)
            } else if upper == "AUTH LOGIN" {
                loginStep = 1
                send("334 VXNlcm5hbWU6", context: context)
            } else if upper.hasPrefix("MAIL FROM:") {
                from = String(line.dropFirst(10)); send("250 OK", context: context)
            } else if upper.hasPrefix("RCPT TO:") {
                to = String(line.dropFirst(8)); send("250 OK", context: context)
            } else if upper == "DATA" {
                inData = true
                send("354 go ahead", context: context)
            } else if upper == "QUIT" {
                send("221 bye", context: context)
                context.close(promise: nil)
            } else {
                send("502 not here", context: context)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

/// Keeps what was logged, for tests that check what the operator is told.
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    var lines: [String] { lock.withLock { entries } }

    func append(_ line: String) { lock.withLock { entries.append(line) } }

    var logger: Logger {
        var logger = Logger(label: "wdiet-test") { _ in Handler(captured: self) }
        logger.logLevel = .warning
        return logger
    }

    struct Handler: LogHandler {
        let captured: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            captured.append("\(event.level) \(event.message) " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
    }
}

/// Issue 21 item 11: password-reset mail through a real provider, with STARTTLS or implicit TLS, never in clear text.
@Suite("Auth: SMTP over TLS")
struct SMTPTransportSecurityTests {
    static let message = MailMessage(to: "ana@example.com", subject: "Reset", body: "https://diet.example.org/reset-password?token=secret-token")

    static func settings(_ sink: TLSSMTPSink, host: String = "localhost", security: SMTPSecurity, caFile: String?, user: Bool = true) -> SMTPSettings {
        var settings = SMTPSettings(
            host: host, port: sink.port, from: "no-reply@diet.example.org", security: security, caFile: caFile,
            username: user ? "wdiet" : nil, password: user ? "s3cret pass" : nil)
        settings.timeout = 20
        return settings
    }

    /// The app with `smtp` as its mail settings, on an in-memory database, and the log it writes.
    static func app(smtp: SMTPSettings) throws -> (app: some ApplicationProtocol, log: CapturedLog) {
        let services = AppServices(database: try AppDatabase.inMemory(), now: TestClock(Fixtures.utc("2026-03-01T09:00:00Z")).closure)
        var configuration = ServerConfiguration(bcryptCost: 4, trustForwardedFor: true)
        configuration.smtp = smtp
        configuration.publicURL = "https://diet.example.org/"
        let log = CapturedLog()
        return (buildApplication(services: services, configuration: configuration, logger: log.logger), log)
    }

    @Test("STARTTLS: the reset mail's link reaches the server only after the handshake; AUTH PLAIN over TLS")
    func starttlsResetMail() async throws {
        let certificate = try await TestCertificate.make()
        let sink = try await TLSSMTPSink(mode: .starttls, certificate: certificate)
        defer { Task { await sink.stop() } }
        let (app, log) = try Self.app(smtp: Self.settings(sink, security: .starttls, caFile: certificate.certificateFile))
        try await app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            let response = try await client.send(.post, "/api/v1/auth/password-reset", body: PasswordRecoveryTests.requestJSON("ana@example.com"))
            #expect(response.status == .accepted)
            let message = try #require(await sink.waitFor(1).first)
            #expect(message.afterHandshake)
            #expect(PasswordRecoveryTests.token(in: .init(from: message.from, to: message.to, data: message.data))?.count == SessionToken.length)
        }
        let lines = sink.lines
        // In clear text: the greeting's EHLO and STARTTLS, nothing else.
        #expect(lines.filter { !$0.afterHandshake }.map(\.text) == ["EHLO wdiet.localhost", "STARTTLS"])
        #expect(lines.filter(\.afterHandshake).map(\.text).prefix(4) == [
            "EHLO wdiet.localhost", "AUTH PLAIN |wdiet|s3cret pass", "MAIL FROM:<no-reply@diet.example.org>", "RCPT TO:<ana@example.com>",
        ])
        #expect(!log.lines.contains { $0.contains("not sent") })
    }

    @Test("implicit TLS to an IP address (checked against the certificate's IP entry), AUTH LOGIN when only LOGIN is offered")
    func implicitTLS() async throws {
        let certificate = try await TestCertificate.make()
        let sink = try await TLSSMTPSink(mode: .implicitTLS, certificate: certificate, authMechanisms: "LOGIN")
        defer { Task { await sink.stop() } }
        try await SMTPMailer(settings: Self.settings(sink, host: "127.0.0.1", security: .tls, caFile: certificate.certificateFile)).send(Self.message)
        let message = try #require(sink.received.first)
        #expect(message.data.contains("token=secret-token"))
        #expect(message.afterHandshake)
        #expect(sink.lines.allSatisfy { $0.afterHandshake })
        #expect(sink.commands.prefix(3) == ["EHLO wdiet.localhost", "AUTH LOGIN", "AUTH LOGIN wdiet"])
        #expect(sink.commands.contains("AUTH LOGIN s3cret pass"))
    }

    @Test("a server that does not offer STARTTLS gets no AUTH, no MAIL and no message, and the failure is logged")
    func starttlsNotOffered() async throws {
        let certificate = try await TestCertificate.make()
        let sink = try await TLSSMTPSink(mode: .starttlsNotOffered, certificate: certificate)
        defer { Task { await sink.stop() } }
        let mailer = SMTPMailer(settings: Self.settings(sink, security: .starttls, caFile: certificate.certificateFile))
        let failure = await #expect(throws: SMTPFailure.self) { try await mailer.send(Self.message) }
        #expect(failure?.description.contains("does not offer STARTTLS") == true)
        #expect(sink.commands == ["EHLO wdiet.localhost", "QUIT"])
        #expect(sink.received.isEmpty)

        // Through the app: the person gets the usual answer, the operator the reason in the log.
        let (app, log) = try Self.app(smtp: Self.settings(sink, security: .starttls, caFile: certificate.certificateFile))
        try await app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            let known = try await client.send(.post, "/api/v1/auth/password-reset", body: PasswordRecoveryTests.requestJSON("ana@example.com"))
            let unknown = try await client.send(.post, "/api/v1/auth/password-reset", body: PasswordRecoveryTests.requestJSON("nobody@example.com"))
            #expect(known.status == .accepted && unknown.status == .accepted)
            #expect(String(buffer: known.body) == String(buffer: unknown.body).replacingOccurrences(of: "nobody@", with: "ana@"))
            #expect(!String(buffer: known.body).contains("STARTTLS"))
            for _ in 0..<200 where !log.lines.contains(where: { $0.contains("not sent") }) { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(log.lines.contains { $0.contains("password recovery email not sent") && $0.contains("does not offer STARTTLS") })
        #expect(sink.received.isEmpty)
        #expect(!sink.commands.contains { $0.hasPrefix("MAIL") || $0.hasPrefix("AUTH") || $0.hasPrefix("RCPT") })
    }

    @Test("a certificate the trust store does not hold: nothing sent, over STARTTLS or implicit TLS")
    func untrustedCertificate() async throws {
        let certificate = try await TestCertificate.make()
        for mode in [TLSSMTPSink.Mode.starttls, .implicitTLS] {
            let sink = try await TLSSMTPSink(mode: mode, certificate: certificate)
            // The system's trust store (no CA file) does not hold the test's own certificate.
            let mailer = SMTPMailer(settings: Self.settings(sink, security: mode == .starttls ? .starttls : .tls, caFile: nil))
            let failure = await #expect(throws: SMTPFailure.self) { try await mailer.send(Self.message) }
            #expect(failure?.description.contains("TLS with the SMTP server failed") == true, "\(String(describing: failure))")
            #expect(sink.received.isEmpty)
            #expect(!sink.lines.contains { $0.afterHandshake })
            #expect(!sink.commands.contains { $0.hasPrefix("MAIL") || $0.hasPrefix("AUTH") })
            await sink.stop()
        }
    }

    @Test("replies sent in clear text after the 220 to STARTTLS are not taken for ones over TLS: nothing sent")
    func starttlsInjection() async throws {
        let certificate = try await TestCertificate.make()
        let sink = try await TLSSMTPSink(mode: .starttlsInjecting, certificate: certificate)
        defer { Task { await sink.stop() } }
        let mailer = SMTPMailer(settings: Self.settings(sink, security: .starttls, caFile: certificate.certificateFile))
        let failure = await #expect(throws: SMTPFailure.self) { try await mailer.send(Self.message) }
        #expect(failure?.description.contains("sent more after agreeing to STARTTLS") == true, "\(String(describing: failure))")
        #expect(sink.commands == ["EHLO wdiet.localhost", "STARTTLS"])
        #expect(sink.received.isEmpty)
    }

    @Test("none to another machine is warned about when the server starts; to this machine it is not")
    func clearTextWarning() throws {
        for (host, warned) in [("10.0.0.5", true), ("127.0.0.1", false)] {
            let (_, log) = try Self.app(smtp: SMTPSettings(host: host, from: "no-reply@diet.example.org", security: .clearText))
            #expect(log.lines.contains { $0.hasPrefix("warning --smtp-security none: password-reset links go to \(host) in clear text") } == warned)
        }
    }

    @Test("a certificate for another name: nothing sent")
    func wrongName() async throws {
        let certificate = try await TestCertificate.make(names: "DNS:mail.example.org")
        let sink = try await TLSSMTPSink(mode: .starttls, certificate: certificate)
        defer { Task { await sink.stop() } }
        let mailer = SMTPMailer(settings: Self.settings(sink, security: .starttls, caFile: certificate.certificateFile))
        let failure = await #expect(throws: SMTPFailure.self) { try await mailer.send(Self.message) }
        #expect(failure?.description.contains("TLS with the SMTP server failed") == true, "\(String(describing: failure))")
        #expect(sink.received.isEmpty)
        #expect(!sink.commands.contains { $0.hasPrefix("MAIL") || $0.hasPrefix("AUTH") })
    }

    @Test("replies: a multi-line reply read to its last line; 4xx and 5xx named for the log")
    func replies() throws {
        let ehlo = SMTPReply(code: 250, lines: ["mail.example.org", "STARTTLS", "AUTH LOGIN plain", "SIZE 1000"])
        #expect(ehlo.extensions["STARTTLS"] == [])
        #expect(ehlo.extensions["AUTH"] == ["LOGIN", "PLAIN"])
        #expect(throws: Never.self) { try ehlo.require(250, after: "EHLO") }
        let later = #expect(throws: SMTPFailure.self) { try SMTPReply(code: 451, lines: ["4.3.0 try again"]).require(250, after: "MAIL FROM") }
        #expect(later?.description == "the SMTP server refused for now MAIL FROM: 451 4.3.0 try again")
        let never = #expect(throws: SMTPFailure.self) { try SMTPReply(code: 550, lines: ["5.1.1 no such user\u{7}"]).require(250, 251, after: "RCPT TO") }
        #expect(never?.description == "the SMTP server refused RCPT TO: 550 5.1.1 no such user")
    }

    @Test("defaults: tls on 465, none to this machine, else starttls on 587; clear-text AUTH to another machine refused at start")
    func settingsDefaults() throws {
        #expect(SMTPSettings(host: "smtp.example.org", from: "a@example.org").security == .starttls)
        #expect(SMTPSettings(host: "smtp.example.org", from: "a@example.org").port == 587)
        #expect(SMTPSettings(host: "smtp.example.org", port: 465, from: "a@example.org").security == .tls)
        #expect(SMTPSettings(host: "smtp.example.org", from: "a@example.org", security: .tls).port == 465)
        #expect(SMTPSettings(host: "127.0.0.1", from: "a@example.org").security == .clearText)
        #expect(SMTPSettings(host: "127.0.0.1", from: "a@example.org").port == 25)
        #expect(SMTPSettings(host: "localhost", port: 2525, from: "a@example.org").security == .clearText)
        #expect(SMTPSettings.isLoopback("::1") && SMTPSettings.isLoopback("127.8.9.10") && !SMTPSettings.isLoopback("128.0.0.1"))
        #expect(!SMTPSettings.isLoopback("localhost.example.org"))
        let clearAuth = SMTPSettings(host: "10.0.0.5", from: "a@example.org", security: .clearText, username: "u", password: "p")
        #expect(throws: SMTPFailure.self) { try clearAuth.validate() }
        #expect(clearAuth.warning?.contains("clear text") == true)
        #expect(throws: Never.self) { try SMTPSettings(host: "127.0.0.1", from: "a@example.org", username: "u", password: "p").validate() }
        #expect(SMTPSettings(host: "127.0.0.1", from: "a@example.org").warning == nil)
        #expect(throws: SMTPFailure.self) { try SMTPSettings(host: "smtp.example.org", from: "a@example.org", caFile: "/nonexistent.pem").validate() }
    }
}
