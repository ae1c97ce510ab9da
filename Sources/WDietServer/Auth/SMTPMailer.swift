#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NIOPosix

/// Where `wdiet serve` hands its emails (password recovery) to: an SMTP server or relay (docs/operations.md).
public struct SMTPSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// The sender: `From:` and the envelope's `MAIL FROM`.
    public var from: String
    /// AUTH PLAIN with these, when both are set. The connection is not encrypted: use a relay on the same machine or
    /// a private network (Postfix, msmtpd, …) that speaks TLS onwards.
    public var username: String?
    public var password: String?
    /// How long connecting and each reply may take.
    public var timeout: TimeInterval = 10

    public init(host: String, port: Int = 25, from: String, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.from = from
        self.username = username
        self.password = password
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
struct SMTPFailure: Error, CustomStringConvertible {
    var description: String
}

/// A small SMTP client (RFC 5321) over a blocking socket on NIO's thread pool: EHLO, optional AUTH PLAIN, MAIL FROM,
/// RCPT TO, DATA with dot-stuffing, QUIT. No TLS (see `SMTPSettings`).
struct SMTPMailer: Mailer {
    let settings: SMTPSettings
    var hostname = "wdiet.localhost"
    var threadPool: NIOThreadPool = .singleton

    func send(_ message: MailMessage) async throws {
        let settings = settings, hostname = hostname
        try await threadPool.runIfActive {
            try Self.deliver(message, settings: settings, hostname: hostname, date: Date())
        }
    }

    static func deliver(_ message: MailMessage, settings: SMTPSettings, hostname: String, date: Date) throws {
        for address in [message.to, settings.from] where address.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "<" || $0 == ">" }) {
            throw SMTPFailure(description: "an address holds a line break or angle bracket") // catalog-exempt: SMTP protocol text and log detail for operators
        }
        let connection = try Connection(host: settings.host, port: settings.port, timeout: settings.timeout)
        defer { connection.close() }
        try connection.expect(220)
        try connection.command("EHLO \(hostname)", expect: 250)
        if let username = settings.username, let password = settings.password {
            let plain = Data(("\0" + username + "\0" + password).utf8).base64EncodedString()
            try connection.command("AUTH PLAIN \(plain)", expect: 235) // catalog-exempt: SMTP protocol text and log detail for operators
        }
        try connection.command("MAIL FROM:<\(settings.from)>", expect: 250)
        try connection.command("RCPT TO:<\(message.to)>", expect: 250, orAlso: 251)
        try connection.command("DATA", expect: 354)
        try connection.write(render(message, from: settings.from, hostname: hostname, date: date) + ".\r\n")
        try connection.expect(250)
        try? connection.command("QUIT", expect: 221)
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

    /// A TCP connection with a read and write timeout, read a line at a time.
    final class Connection {
        private let socket: Int32
        private var buffer: [UInt8] = []

        init(host: String, port: Int, timeout: TimeInterval) throws {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
            hints.ai_socktype = SOCK_STREAM
            #endif
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else {
                throw SMTPFailure(description: "could not resolve the SMTP host \(host)") // catalog-exempt: SMTP protocol text and log detail for operators
            }
            defer { freeaddrinfo(result) }
            var candidate: UnsafeMutablePointer<addrinfo>? = first
            var connected: Int32 = -1
            var seconds = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
            while let info = candidate {
                let fd = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
                if fd >= 0 {
                    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
                    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
                    if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                        connected = fd
                        break
                    }
                    Glibc.close(fd)
                }
                candidate = info.pointee.ai_next
            }
            guard connected >= 0 else { throw SMTPFailure(description: "could not connect to the SMTP server \(host):\(port)") } // catalog-exempt: SMTP protocol text and log detail for operators
            socket = connected
        }

        func close() { Glibc.close(socket) }

        func write(_ text: String) throws {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { throw SMTPFailure(description: "the SMTP server stopped reading") } // catalog-exempt: SMTP protocol text and log detail for operators
                bytes = bytes.dropFirst(sent)
            }
        }

        func command(_ line: String, expect code: Int, orAlso other: Int? = nil) throws {
            try write(line + "\r\n")
            try expect(code, orAlso: other, after: line.hasPrefix("AUTH") ? "AUTH" : line)
        }

        /// Reads one reply (a multi-line one to its last line) and checks its code.
        func expect(_ code: Int, orAlso other: Int? = nil, after command: String = "the greeting") throws {
            while true {
                let line = try readLine()
                guard line.count >= 3, let got = Int(line.prefix(3)) else {
                    throw SMTPFailure(description: "the SMTP server answered \(command) with something that is no reply") // catalog-exempt: SMTP protocol text and log detail for operators
                }
                if line.count > 3, line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
                guard got == code || got == other else {
                    throw SMTPFailure(description: "the SMTP server answered \(command) with \(line.prefix(200))") // catalog-exempt: SMTP protocol text and log detail for operators
                }
                return
            }
        }

        private func readLine() throws -> String {
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: .init(charactersIn: "\r"))
                    buffer.removeFirst(end + 1)
                    return line
                }
                guard buffer.count < 64 * 1024 else { throw SMTPFailure(description: "the SMTP server sent an overlong line") } // catalog-exempt: SMTP protocol text and log detail for operators
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw SMTPFailure(description: "the SMTP server closed the connection or did not answer in time") } // catalog-exempt: SMTP protocol text and log detail for operators
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }
}
