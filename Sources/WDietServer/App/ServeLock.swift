import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `wdiet serve` per SQLite file (issue 21 item 5). The server keeps profiles, sessions and dashboard inputs in
/// its process, so a second server on the same file would answer from stale copies (an old profile, meals dated in
/// an old time zone). `wdiet serve` takes an exclusive `flock` on `FILE-serve.lock` before it opens the database
/// and holds it until the process ends; the kernel lets go of it when the process dies, however it dies, so a
/// crashed server never leaves a stale lock behind. Other commands (`wdiet migrate`, `metrics`, `foods search`) do
/// not take it: they may open the file while the server runs.
public final class ServeLock: Sendable {
    /// The lock file's descriptor; closing it releases the lock.
    private let descriptor: Int32
    public let path: String

    /// The lock file beside the database: `wdiet.sqlite` → `wdiet.sqlite-serve.lock`.
    public static func lockPath(forDatabase databasePath: String) -> String { databasePath + "-serve.lock" }

    public struct Held: Error, CustomStringConvertible, Equatable {
        public var databasePath: String
        /// The process that holds it, as it wrote itself into the lock file (nil when unreadable).
        public var holder: Int32?

        public var description: String {
            let process = holder.map { " (process \($0))" } ?? ""
            // catalog-exempt: the operator's one line, in English like the command's other messages
            return "\(databasePath) is already served by another wdiet serve\(process); one server per SQLite file (use PostgreSQL for several)"
        }
    }

    public struct Unusable: Error, CustomStringConvertible {
        public var lockPath: String
        public var reason: String
        public var description: String { "cannot create the lock file \(lockPath): \(reason)" } // catalog-exempt: the operator's line
    }

    /// Takes the lock for `databasePath`, or throws `Held` at once (never waits) when another process has it.
    public static func acquire(databasePath: String) throws -> ServeLock {
        let path = lockPath(forDatabase: databasePath)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Unusable(lockPath: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = read(fd, &bytes, bytes.count)
            close(fd)
            if failure == EWOULDBLOCK {
                let text = count > 0 ? String(decoding: bytes[0..<count], as: UTF8.self) : ""
                throw Held(databasePath: databasePath, holder: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            throw Unusable(lockPath: path, reason: String(cString: strerror(failure)))
        }
        // Who holds it, for the refusal's line (the lock itself is the flock, not this text).
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return ServeLock(descriptor: fd, path: path)
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }
}
