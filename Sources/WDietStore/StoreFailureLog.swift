import Foundation

/// Why a store could not serve a request (issue 21 item 13): the log used to say only "request unavailable", so a
/// full disk looked like any other failure. Each backend classifies what its database reported.
public enum StoreFailureCause: String, Sendable, Equatable, CaseIterable {
    /// No space left: SQLite's SQLITE_FULL, PostgreSQL's 53100 disk_full.
    case diskFull
    /// The database refuses writes: a read-only file or file system (SQLITE_READONLY), a read-only transaction or
    /// standby (PostgreSQL 25006).
    case readOnly
    /// Another writer holds the lock longer than the store waits (SQLITE_BUSY/LOCKED), or PostgreSQL's lock, deadlock
    /// or statement timeouts (40001, 40P01, 55P03, 57014).
    case databaseLocked
    /// The connection to PostgreSQL was lost or could not be made (a restart, a network failure, 57P01, 08xxx).
    case connectionLost
    /// PostgreSQL has no connection slot left (53300).
    case tooManyConnections
    /// The operating system failed a read or write (SQLITE_IOERR, SQLITE_CANTOPEN).
    case ioError
    /// The database file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
    case corrupt
    /// Anything else.
    case other

    /// How the log and the health endpoint say it.
    public var explanation: String {
        switch self {
        case .diskFull: "the disk is full"
        case .readOnly: "the database refuses writes (read-only)"
        case .databaseLocked: "the database is locked by another writer for too long"
        case .connectionLost: "the connection to the database was lost"
        case .tooManyConnections: "the database has no connection slot left"
        case .ioError: "the operating system failed a read or write of the database file"
        case .corrupt: "the database file is damaged"
        case .other: "the database reported an error"
        }
    }

    /// A cause that says the store cannot take writes for now, not only that one request was unlucky.
    public var blocksWrites: Bool {
        switch self {
        case .diskFull, .readOnly, .ioError, .corrupt, .connectionLost, .tooManyConnections: true
        case .databaseLocked, .other: false
        }
    }
}

/// Says each cause once per cause and minute (with how many more happened meanwhile), and remembers the latest
/// failure of each cause for the health endpoint. The backends report to `shared`; the server gives it a sink that
/// writes to its log (`wdiet serve`'s logger).
public final class StoreFailureLog: @unchecked Sendable {
    public static let shared = StoreFailureLog()

    public struct Line: Equatable, Sendable {
        public var cause: StoreFailureCause
        /// What the database said (for the operator; never shown to a client).
        public var detail: String
        /// How many more of this cause happened since the last line, not logged one by one.
        public var suppressed: Int

        public var message: String {
            // catalog-exempt: an operator's log line, in English
            "The store cannot serve requests: \(cause.explanation)" + (suppressed > 0 ? " (\(suppressed) more since the last report)" : "")
        }
    }

    private let lock = NSLock()
    private var lastLogged: [StoreFailureCause: Date] = [:]
    private var suppressed: [StoreFailureCause: Int] = [:]
    private var latest: [StoreFailureCause: Date] = [:]
    private var sink: @Sendable (Line) -> Void
    private var observers: [UUID: @Sendable (Line) -> Void] = [:]
    private let now: @Sendable () -> Date
    public let interval: TimeInterval

    public init(interval: TimeInterval = 60, now: @escaping @Sendable () -> Date = Date.init, sink: @escaping @Sendable (Line) -> Void = { _ in }) {
        self.interval = interval
        self.now = now
        self.sink = sink
    }

    /// Where the lines go (the server's logger).
    public func setSink(_ sink: @escaping @Sendable (Line) -> Void) {
        lock.lock()
        self.sink = sink
        lock.unlock()
    }

    /// Also hands every logged line to `observer` until `stopObserving` (tests: every app a test builds sets the sink
    /// of this one shared log, so a test that reads the lines watches beside the sink instead of replacing it).
    public func observe(_ observer: @escaping @Sendable (Line) -> Void) -> UUID {
        let id = UUID()
        lock.lock()
        observers[id] = observer
        lock.unlock()
        return id
    }

    public func stopObserving(_ id: UUID) {
        lock.lock()
        observers[id] = nil
        lock.unlock()
    }

    /// A failure of `cause`: logged unless the same cause was logged less than `interval` ago.
    public func record(_ cause: StoreFailureCause, detail: String) {
        lock.lock()
        let at = now()
        latest[cause] = at
        let line: Line?
        if let last = lastLogged[cause], at.timeIntervalSince(last) < interval {
            suppressed[cause, default: 0] += 1
            line = nil
        } else {
            line = Line(cause: cause, detail: detail, suppressed: suppressed[cause] ?? 0)
            lastLogged[cause] = at
            suppressed[cause] = 0
        }
        let sink = self.sink
        let observers = Array(self.observers.values)
        lock.unlock()
        if let line {
            sink(line)
            for observer in observers { observer(line) }
        }
    }

    /// The most recent failure that blocks writes within the last `window` seconds: (cause, when).
    public func recentWriteBlocker(within window: TimeInterval) -> (cause: StoreFailureCause, at: Date)? {
        lock.lock()
        defer { lock.unlock() }
        let since = now().addingTimeInterval(-window)
        return latest.filter { $0.key.blocksWrites && $0.value >= since }.max { $0.value < $1.value }.map { ($0.key, $0.value) }
    }

    /// Forgets the recorded failures (a write that went through since).
    public func clear(_ cause: StoreFailureCause? = nil) {
        lock.lock()
        if let cause { latest[cause] = nil } else { latest.removeAll() }
        lock.unlock()
    }
}
