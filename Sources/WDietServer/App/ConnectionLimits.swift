import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// What one client, and all of them together, may hold open (issue 21 item 2): idle, half-open and slow
/// connections are closed after `readTimeout`, and no client address may hold more than `perAddress` connections,
/// so a client that opens hundreds of idle sockets cannot use up the process's file descriptors and stop others
/// from being served. Values and why: docs/operations.md ("Connections from clients").
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a connection may go without the server reading from it, while it has no request being answered:
    /// before a request's head is complete (idle between requests, a connection that sends nothing, a head that
    /// trickles in or never ends, HTTP/0.9) and between the parts of a request's body (a `Content-Length` larger than
    /// the body sent). A request whose handler is running is never cut off by it.
    public var readTimeout: TimeInterval = ConnectionLimits.defaultReadTimeout
    /// The most connections one client address may hold at once; nil for no limit (behind a reverse proxy every
    /// connection comes from the proxy, so `--trust-forwarded-for` turns it off unless it is given).
    public var perAddress: Int? = ConnectionLimits.defaultPerAddress
    /// The most connections the process holds at once, below its file limit so that SQLite, the media files and the
    /// listening socket always have descriptors; computed from `RLIMIT_NOFILE` when nil.
    public var total: Int?

    public static let defaultReadTimeout: TimeInterval = 30
    public static let defaultPerAddress = 64
    /// Descriptors kept for everything but client connections (database files and their WAL and shared memory for
    /// every pooled connection, the media database, event loops, the lock file, logs).
    public static let reservedDescriptors = 64

    public init(readTimeout: TimeInterval = ConnectionLimits.defaultReadTimeout, perAddress: Int? = ConnectionLimits.defaultPerAddress, total: Int? = nil) {
        self.readTimeout = readTimeout
        self.perAddress = perAddress
        self.total = total
    }

    /// `total`, or the process's soft file limit less `reservedDescriptors` (at least 16).
    public var effectiveTotal: Int {
        if let total { return total }
        var limit = rlimit()
        // No limit (RLIM_INFINITY is all ones) or an unreadable one: plenty.
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < 1_000_000 else { return 1_000_000 }
        return max(16, Int(limit.rlim_cur) - Self.reservedDescriptors)
    }
}

/// Counts the open connections, per client address and in all.
final class ConnectionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var perAddress: [String: Int] = [:]
    private var total = 0
    let perAddressLimit: Int?
    let totalLimit: Int

    init(limits: ConnectionLimits) {
        perAddressLimit = limits.perAddress
        totalLimit = limits.effectiveTotal
    }

    enum Admission: Equatable { case admitted, tooManyFromAddress, tooManyInAll }

    func admit(_ address: String) -> Admission {
        lock.lock()
        defer { lock.unlock() }
        if total >= totalLimit { return .tooManyInAll }
        let held = perAddress[address, default: 0]
        if let perAddressLimit, held >= perAddressLimit { return .tooManyFromAddress }
        perAddress[address] = held + 1
        total += 1
        return .admitted
    }

    func release(_ address: String) {
        lock.lock()
        defer { lock.unlock() }
        total -= 1
        let held = perAddress[address, default: 1] - 1
        perAddress[address] = held > 0 ? held : nil
    }

    var open: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
}

/// First in every connection's pipeline: admits the connection against the counter when it becomes active, or
/// closes it at once (before reading a byte) when its address, or the process, holds as many as it may.
final class ConnectionAdmissionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let counter: ConnectionCounter
    private let logger: Logger
    private var admittedAddress: String?
    private var decided = false

    init(counter: ConnectionCounter, logger: Logger) {
        self.counter = counter
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { decide(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        decide(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let admittedAddress {
            counter.release(admittedAddress)
            self.admittedAddress = nil
        }
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let admittedAddress {
            counter.release(admittedAddress)
            self.admittedAddress = nil
        }
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        switch counter.admit(address) {
        case .admitted:
            admittedAddress = address
        case .tooManyFromAddress, .tooManyInAll:
            context.close(promise: nil)
        }
    }
}

/// Hummingbird's HTTP/1 channel with the admission handler in front, `Expect: 100-continue` answered
/// (`ExpectContinueHandler`), and `readTimeout` as its idle timeout
/// (Hummingbird's `HTTPConnectionStateHandler` closes a connection that has read nothing for that long unless a
/// request's handler is running).
struct LimitedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel
    let counter: ConnectionCounter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionAdmissionHandler(counter: counter, logger: logger), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with `ConnectionLimits`.
    static func http1(limits: ConnectionLimits) -> HTTPServerBuilder {
        let counter = ConnectionCounter(limits: limits)
        return HTTPServerBuilder { responder in
            LimitedHTTP1Channel(
                http1: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [ExpectContinueHandler()],
                        idleTimeout: .milliseconds(Int64(limits.readTimeout * 1_000)))),
                counter: counter)
        }
    }
}
