#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// How the connection to the SMTP server is protected (`wdiet serve --smtp-security`, docs/operations.md "Email").
public enum SMTPSecurity: String, Sendable, CaseIterable {
    /// Clear text first, then STARTTLS before anything else is said; refused when the server does not offer it.
    case starttls
    /// TLS from the first byte ("implicit TLS", SMTPS, port 465).
    case tls
    /// Clear text throughout (`none`): only for a relay on this machine.
    case clearText = "none"

    public var defaultPort: Int {
        switch self {
        case .starttls: 587
        case .tls: 465
        case .clearText: 25
        }
    }
}

/// Where `wdiet serve` hands its emails (password recovery) to: an SMTP server or relay (docs/operations.md).
public struct SMTPSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// The sender: `From:` and the envelope's `MAIL FROM`.
    public var from: String
    public var security: SMTPSecurity
    /// A PEM file of the certificate authorities to trust instead of the system's (a provider with a private CA).
    public var caFile: String?
    /// AUTH PLAIN (or LOGIN, when the server offers only that) with these, when both are set; only over TLS unless
    /// the server is on this machine.
    public var username: String?
    public var password: String?
    /// How long connecting and each reply (the TLS handshake included) may take.
    public var timeout: TimeInterval = 10
    /// The waits before trying again after a failure that may pass (no connection, no answer in time, a 4xx reply:
    /// RFC 5321 section 4.2.5 asks the client to try later): 30 s, then 2 minutes; a link is good for 30 minutes.
    public var retryDelays: [TimeInterval] = [30, 120]

    /// Without `security`: implicit TLS on port 465, clear text to this machine (a local relay rarely has a
    /// certificate for "localhost"), else STARTTLS. Without `port`: the security's usual port.
    public init(
        host: String, port: Int? = nil, from: String, security: SMTPSecurity? = nil, caFile: String? = nil,
        username: String? = nil, password: String? = nil
    ) {
        let security = security ?? Self.defaultSecurity(host: host, port: port)
        self.host = host
        self.port = port ?? security.defaultPort
        self.from = from
        self.security = security
        self.caFile = caFile
        self.username = username
        self.password = password
    }

    public static func defaultSecurity(host: String, port: Int?) -> SMTPSecurity {
        if port == 465 { return .tls }
        return isLoopback(host) ? .clearText : .starttls
    }

    /// "localhost", 127.0.0.0/8 or ::1: traffic that never leaves the machine.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        if inet_pton(AF_INET6, name, &v6) == 1 { return name == "::1" || name == "0:0:0:0:0:0:0:1" }
        return false
    }

    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Settings `wdiet serve` refuses to start with (an error that names the option), checked before it listens.
    public func validate() throws {
        if security == .clearText, username != nil, password != nil, !isLoopback {
            throw SMTPFailure(description: "--smtp-security none would send the SMTP password in clear text to \(host), which is not this machine: use starttls or tls") // catalog-exempt: an operator's start-up error
        }
        if let caFile {
            guard security != .clearText else {
                throw SMTPFailure(description: "--smtp-ca-file needs --smtp-security starttls or tls") // catalog-exempt: an operator's start-up error
            }
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw SMTPFailure(description: "--smtp-ca-file \(caFile) is not a readable PEM file of certificates") // catalog-exempt: an operator's start-up error
            }
            guard !certificates.isEmpty else {
                throw SMTPFailure(description: "--smtp-ca-file \(caFile) holds no certificate") // catalog-exempt: an operator's start-up error
            }
        }
    }

    /// What to warn about at start-up (settings that work but expose something).
    public var warning: String? {
        guard security == .clearText, !isLoopback else { return nil }
        return "--smtp-security none: password-reset links go to \(host) in clear text; use starttls or tls unless the network between is private" // catalog-exempt: a log line for operators
    }

    /// Certificates checked in full (chain and host name) against the system's trust store or `caFile`.
    func makeTLSContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        configuration.minimumTLSVersion = .tlsv12
        if let caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }
}

/// One email, plain text in UTF-8.
struct MailMessage: Sendable, Equatable {
    var to: String
    var subject: String
    var body: String
}

protocol Mailer: Sendable {
    func send(_ message: MailMessage) async throws
}

/// Why an email did not go out (logged; the person sees the same answer either way).
public struct SMTPFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// A failure that may pass by itself (no connection, no answer in time, a closed connection, a 4xx reply), so the
    /// email is tried again; a 5xx, a certificate or a missing STARTTLS will not pass by waiting.
    public var mayPass = false

    /// A failed handshake or certificate check (NIOSSL's errors): it will not pass by waiting.
    static func isTLS(_ error: any Error) -> Bool {
        error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError
    }
}

/// A small SMTP client (RFC 5321, RFC 3207 STARTTLS, RFC 8314 implicit TLS) on a NIO channel: EHLO, STARTTLS and
/// EHLO again, AUTH PLAIN or LOGIN, MAIL FROM, RCPT TO, DATA with dot-stuffing, QUIT. Never falls back to clear text.
struct SMTPMailer: Mailer {
    let settings: SMTPSettings
    var hostname = "wdiet.localhost"
    var group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton

    /// Delivers `message`, trying again after `settings.retryDelays` while the failure may pass.
    func send(_ message: MailMessage) async throws {
        var delays = settings.retryDelays[...]
        while true {
            do {
                return try await Self.deliver(message, settings: settings, hostname: hostname, date: Date(), group: group)
            } catch let failure as SMTPFailure where failure.mayPass && !delays.isEmpty {
                try await Task.sleep(for: .seconds(delays.removeFirst()))
            } catch var failure as SMTPFailure where failure.mayPass && !settings.retryDelays.isEmpty {
                failure.description += " (tried \(settings.retryDelays.count + 1) times)" // catalog-exempt: log detail for operators
                throw failure
            }
        }
    }

    static func deliver(_ message: MailMessage, settings: SMTPSettings, hostname: String, date: Date, group: any EventLoopGroup) async throws {
        for address in [message.to, settings.from] where address.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "<" || $0 == ">" }) {
            throw SMTPFailure(description: "an address holds a line break or angle bracket") // catalog-exempt: SMTP protocol text and log detail for operators
        }
        let tls: NIOSSLContext?
        do {
            tls = settings.security == .clearText ? nil : try settings.makeTLSContext()
        } catch {
            throw SMTPFailure(description: "could not set up TLS for the SMTP server: \(error)") // catalog-exempt: log detail for operators
        }
        // SNI and the certificate's name: the host as configured; an IP address is checked against the certificate's
        // IP entries (NIOSSL compares with the peer's address when no name is given).
        let serverName = isIPAddress(settings.host) ? nil : settings.host
        let connection = try await SMTPConnection.open(
            host: settings.host, port: settings.port, implicitTLS: settings.security == .tls ? tls.map { ($0, serverName) } : nil,
            timeout: settings.timeout, group: group)
        do {
            try await conversation(message, settings: settings, hostname: hostname, date: date, tls: tls, serverName: serverName, on: connection)
        } catch let failure as SMTPFailure {
            connection.close()
            throw failure
        } catch {
            connection.close()
            throw SMTPFailure(description: "the conversation with the SMTP server failed: \(error)", mayPass: !SMTPFailure.isTLS(error)) // catalog-exempt: log detail for operators
        }
        connection.close()
    }

    private static func conversation(
        _ message: MailMessage, settings: SMTPSettings, hostname: String, date: Date, tls: NIOSSLContext?, serverName: String?,
        on connection: SMTPConnection
    ) async throws {
        try await connection.reply(to: nil).require(220, after: "the greeting")
        var extensions = try await connection.command("EHLO \(hostname)").require(250, after: "EHLO").extensions
        var encrypted = settings.security == .tls
        if settings.security == .starttls, let tls {
            guard extensions.keys.contains("STARTTLS") else {
                _ = try? await connection.command("QUIT")
                throw SMTPFailure(description: "the SMTP server \(settings.host):\(settings.port) does not offer STARTTLS; nothing sent (--smtp-security starttls never falls back to clear text)") // catalog-exempt: log detail for operators
            }
            try await connection.command("STARTTLS").require(220, after: "STARTTLS")
            try await connection.startTLS(context: tls, serverName: serverName)
            encrypted = true
            // What the server said before TLS is forgotten (RFC 3207 section 4.2): ask again.
            extensions = try await connection.command("EHLO \(hostname)").require(250, after: "EHLO after STARTTLS").extensions // catalog-exempt: SMTP protocol text
        }
        if let username = settings.username, let password = settings.password {
            // What the connection is, not what the settings ask for: a password never goes out unencrypted but to
            // this machine with `none`.
            guard encrypted || (settings.security == .clearText && settings.isLoopback) else {
                throw SMTPFailure(description: "refused to send the SMTP password in clear text to \(settings.host)") // catalog-exempt: log detail for operators
            }
            let mechanisms = extensions["AUTH"] ?? []
            if mechanisms.contains("PLAIN") || !mechanisms.contains("LOGIN") {
                let plain = base64("\0" + username + "\0" + password)
                try await connection.command("AUTH PLAIN \(plain)").require(235, after: "AUTH PLAIN") // catalog-exempt: SMTP protocol text
            } else {
                try await connection.command("AUTH LOGIN").require(334, after: "AUTH LOGIN") // catalog-exempt: SMTP protocol text
                try await connection.command(base64(username)).require(334, after: "AUTH LOGIN's user name") // catalog-exempt: SMTP protocol text
                try await connection.command(base64(password)).require(235, after: "AUTH LOGIN's password") // catalog-exempt: SMTP protocol text
            }
        }
        try await connection.command("MAIL FROM:<\(settings.from)>").require(250, after: "MAIL FROM") // catalog-exempt: SMTP protocol text
        try await connection.command("RCPT TO:<\(message.to)>").require(250, 251, after: "RCPT TO") // catalog-exempt: SMTP protocol text
        try await connection.command("DATA").require(354, after: "DATA")
        try await connection.command(render(message, from: settings.from, hostname: hostname, date: date) + ".").require(250, after: "the message")
        _ = try? await connection.command("QUIT")
    }

    private static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Headers and body, lines ended with CRLF and dot-stuffed; the subject RFC 2047-encoded, the body
    /// quoted-printable free: UTF-8 in 8bit (every relay today takes 8BITMIME; lines stay short).
    static func render(_ message: MailMessage, from: String, hostname: String, date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'" // catalog-exempt: SMTP protocol text and log detail for operators
        let subject = "=?UTF-8?B?" + Data(message.subject.utf8).base64EncodedString() + "?="
        let headers = [
            "From: <\(from)>", "To: <\(message.to)>", "Subject: \(subject)", "Date: \(formatter.string(from: date))",
            "Message-ID: <\(UUID().uuidString.lowercased())@\(hostname)>", "MIME-Version: 1.0", // catalog-exempt: SMTP protocol text and log detail for operators
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", // catalog-exempt: SMTP protocol text and log detail for operators
        ]
        let bodyLines = message.body.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return (headers + [""] + bodyLines).joined(separator: "\r\n") + "\r\n"
    }
}

/// One reply: its code and its lines' text (a multi-line reply's lines in order).
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]

    /// EHLO's keywords (upper-cased) with their parameters, from the lines after the greeting line.
    var extensions: [String: [String]] {
        var result: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let words = line.uppercased().split(separator: " ").map(String.init)
            if let keyword = words.first { result[keyword] = Array(words.dropFirst()) }
        }
        return result
    }

    /// The reply when its code is one of `codes`, else a failure that says what was refused, and whether for now
    /// (4xx: the server may take it later) or for good (5xx).
    @discardableResult
    func require(_ codes: Int..., after what: String) throws -> SMTPReply {
        guard !codes.contains(code) else { return self }
        let text = String((lines.first ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200))
        let kind = switch code {
        case 400..<500: "refused for now" // catalog-exempt: log detail for operators
        case 500..<600: "refused" // catalog-exempt: log detail for operators
        default: "answered unexpectedly" // catalog-exempt: log detail for operators
        }
        throw SMTPFailure(description: "the SMTP server \(kind) \(what): \(code) \(text)", mayPass: (400..<500).contains(code)) // catalog-exempt: log detail for operators
    }
}

/// The reply readers a connection's channel initializer added, by channel: with several addresses (localhost's ::1
/// and 127.0.0.1) the connect may initialise more than one channel, and the reader kept is the winning channel's.
private final class AddedReaders: Sendable {
    private let readers = Mutex<[ObjectIdentifier: NIOLoopBound<SMTPReplyReader>]>([:])

    func add(_ reader: SMTPReplyReader, of channel: any Channel) {
        readers.withLock { $0[ObjectIdentifier(channel)] = NIOLoopBound(reader, eventLoop: channel.eventLoop) }
    }

    func reader(of channel: any Channel) -> NIOLoopBound<SMTPReplyReader>? {
        readers.withLock { $0[ObjectIdentifier(channel)] }
    }
}

/// The client's channel: writes commands, reads replies one at a time (each within the timeout), and can turn TLS
/// on in the middle (STARTTLS).
struct SMTPConnection: Sendable {
    let channel: any Channel
    /// Held, not looked up: once the channel closes (a failed handshake) its pipeline is empty, and the reader still
    /// has to say why.
    let reader: NIOLoopBound<SMTPReplyReader>
    let timeout: TimeAmount

    static func open(
        host: String, port: Int, implicitTLS: (NIOSSLContext, String?)?, timeout: TimeInterval, group: any EventLoopGroup
    ) async throws -> SMTPConnection {
        let limit = TimeAmount.milliseconds(Int64(timeout * 1000))
        // The reader is kept from the moment it is added: looked up in the pipeline after the connect, it was already
        // gone once (a loaded machine; an implicit-TLS handshake refused at once closes the channel), and the failure
        // read "notFound" instead of the TLS error.
        let added = AddedReaders()
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(limit)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: implicitTLS.0, serverHostname: implicitTLS.1))
                    }
                    let reader = SMTPReplyReader()
                    try channel.pipeline.syncOperations.addHandler(reader)
                    added.add(reader, of: channel)
                }
            }
        do {
            let channel = try await bootstrap.connect(host: host, port: port).get()
            guard let reader = added.reader(of: channel) else { throw ChannelPipelineError.notFound }
            return SMTPConnection(channel: channel, reader: reader, timeout: limit)
        } catch {
            throw SMTPFailure(description: "could not connect to the SMTP server \(host):\(port): \(error)", mayPass: true) // catalog-exempt: log detail for operators
        }
    }

    /// Sends `line` (nil: nothing, wait for the greeting) and waits for the next reply.
    func command(_ line: String) async throws -> SMTPReply {
        try await reply(to: line)
    }

    func reply(to line: String?) async throws -> SMTPReply {
        let channel = self.channel, reader = self.reader, timeout = self.timeout
        let label = line.map { $0.hasPrefix("EHLO") || $0.hasPrefix("MAIL") || $0.hasPrefix("RCPT") || $0 == "DATA" || $0 == "STARTTLS" || $0 == "QUIT" ? $0 : "a command" } ?? "the greeting" // catalog-exempt: log detail for operators
        if let line {
            var buffer = channel.allocator.buffer(capacity: line.utf8.count + 2)
            buffer.writeString(line + "\r\n")
            channel.writeAndFlush(buffer, promise: nil)
        }
        return try await channel.eventLoop.flatSubmit {
            reader.value.nextReply(on: channel, timeout: timeout, after: label)
        }.get()
    }

    /// Puts TLS beneath the reader. Refused when the server already sent more than its answer to STARTTLS: bytes read
    /// in clear text must never pass for ones read over TLS (the STARTTLS command injection of CVE-2011-0411).
    func startTLS(context: NIOSSLContext, serverName: String?) async throws {
        let channel = self.channel, reader = self.reader
        try await channel.eventLoop.submit {
            if let failure = reader.value.failure { throw failure }
            guard !reader.value.hasUnread else {
                throw SMTPFailure(description: "the SMTP server sent more after agreeing to STARTTLS; nothing sent") // catalog-exempt: log detail for operators
            }
            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName), position: .first)
        }.get()
    }

    func close() {
        channel.close(promise: nil)
    }
}

/// Bytes to lines to replies (RFC 5321 section 4.2: "250-…" continues, "250 …" ends); a reply waits in a queue until
/// asked for. Lives on the channel's event loop.
final class SMTPReplyReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private var pending = ByteBuffer()
    private var lines: [String] = []
    private var code: Int?
    private var replies: [SMTPReply] = []
    private var waiting: EventLoopPromise<SMTPReply>?
    private(set) var failure: (any Error)?
    private static let longestLine = 64 * 1024

    var hasUnread: Bool { pending.readableBytes > 0 || !lines.isEmpty || !replies.isEmpty }

    func nextReply(on channel: any Channel, timeout: TimeAmount, after label: String) -> EventLoopFuture<SMTPReply> {
        if !replies.isEmpty { return channel.eventLoop.makeSucceededFuture(replies.removeFirst()) }
        if let failure { return channel.eventLoop.makeFailedFuture(failure) }
        let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
        waiting = promise
        let reader = NIOLoopBound(self, eventLoop: channel.eventLoop)
        let timer = channel.eventLoop.scheduleTask(in: timeout) {
            guard reader.value.waiting?.futureResult === promise.futureResult else { return }
            reader.value.waiting = nil
            let seconds = Double(timeout.nanoseconds) / 1e9
            promise.fail(SMTPFailure(description: "the SMTP server did not answer \(label) within \(seconds) s", mayPass: true)) // catalog-exempt: log detail for operators
            channel.close(promise: nil)
        }
        promise.futureResult.whenComplete { _ in timer.cancel() }
        return promise.futureResult
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        pending.writeBuffer(&incoming)
        while failure == nil, let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            // Bytes, not Characters: "\r\n" is one Character, so a String's hasSuffix("\n") misses it.
            var bytes = pending.readBytes(length: newline - pending.readerIndex + 1) ?? []
            while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
            take(String(decoding: bytes, as: UTF8.self), context: context)
        }
        if pending.readableBytes > Self.longestLine {
            fail(SMTPFailure(description: "the SMTP server sent an overlong line"), context: context) // catalog-exempt: log detail for operators
        }
    }

    private func take(_ line: String, context: ChannelHandlerContext) {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, bytes[0..<3].allSatisfy({ (0x30...0x39).contains($0) }), let lineCode = Int(String(line.prefix(3))),
              bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-"),
              code == nil || code == lineCode
        else {
            fail(SMTPFailure(description: "the SMTP server sent something that is no reply: \(line.prefix(80))"), context: context) // catalog-exempt: log detail for operators
            return
        }
        code = lineCode
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        guard bytes.count == 3 || bytes[3] == UInt8(ascii: " ") else { return }
        let reply = SMTPReply(code: lineCode, lines: lines)
        code = nil
        lines = []
        if let waiting {
            self.waiting = nil
            waiting.succeed(reply)
        } else {
            replies.append(reply)
        }
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        if failure == nil { failure = error }
        if let waiting {
            self.waiting = nil
            waiting.fail(failure!)
        }
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A failed handshake or certificate check arrives here from NIOSSL.
        let tls = SMTPFailure.isTLS(error)
        fail(SMTPFailure(description: "\(tls ? "TLS with" : "the connection to") the SMTP server failed: \(error)", mayPass: !tls), context: context) // catalog-exempt: log detail for operators
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(SMTPFailure(description: "the SMTP server closed the connection", mayPass: true), context: context) // catalog-exempt: log detail for operators
        context.fireChannelInactive()
    }
}
