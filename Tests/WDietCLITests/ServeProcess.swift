import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `wdiet serve` started as its own process (through `/bin/sh`, so a test can lower its file limit with
/// `ulimit -n`), with its standard error in a file, stopped by `stop()`.
final class ServeProcess: @unchecked Sendable {
    let process: Process
    let port: Int
    let errorLog: URL

    /// Starts `wdiet serve ARGS --port PORT` and waits until it answers `GET /health` (or until it exits).
    static func start(_ arguments: [String], port: Int, fileLimit: Int? = nil, waitUntilServing: Bool = true) async throws -> ServeProcess {
        let folder = try CLI.temporaryDirectory()
        let errorLog = folder.appendingPathComponent("serve.stderr")
        FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let quoted = ([CLI.binary(CLI.product).path, "serve", "--port", String(port)] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", (fileLimit.map { "ulimit -n \($0) && " } ?? "") + "exec " + quoted]
        process.currentDirectoryURL = CLI.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "WDIET_FOOD_DATA")
        environment.removeValue(forKey: "WDIET_DATABASE_URL")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        let serve = ServeProcess(process: process, port: port, errorLog: errorLog)
        if waitUntilServing {
            // Generous: a debug server starting beside the browser journeys and a niced build on two busy cores
            // took over a minute to answer once (CI at load 16); the bound only keeps a server that never starts
            // from holding the run.
            let deadline = Date().addingTimeInterval(300)
            while Date() < deadline, process.isRunning {
                if let answer = RawHTTP.exchange("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", port: port, timeout: 2),
                   answer.hasPrefix("HTTP/1.1 200") {
                    return serve
                }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            serve.stop()
            throw ServeFailure(message: "wdiet serve did not answer /health: \(serve.errors)")
        }
        return serve
    }

    private init(process: Process, port: Int, errorLog: URL) {
        self.process = process
        self.port = port
        self.errorLog = errorLog
    }

    var errors: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// Waits up to `seconds` for the process to end; its exit status, or nil when it still runs.
    func waitForExit(seconds: Double) async throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct ServeFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Plain sockets, for what an HTTP client library will not do: connect from a chosen local address, hold a
/// connection open without sending anything, send half a request.
enum RawHTTP {
    /// A connected TCP socket to 127.0.0.1:`port`, from `from` (any 127.x.y.z works on Linux's loopback), or nil.
    static func connect(port: Int, from: String = "127.0.0.1", timeout: Double = 5) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(from)
        local.sin_port = 0
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    static func send(_ text: String, on fd: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Everything the server sends until it closes the connection or `timeout` passes; `closed` says which.
    static func readAll(_ fd: Int32, timeout: Double) -> (text: String, closed: Bool) {
        var data = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var time = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        while Date() < deadline {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                data += buffer[0..<count]
            } else if count == 0 {
                return (String(decoding: data, as: UTF8.self), true)
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return (String(decoding: data, as: UTF8.self), true)  // reset by the server
            }
        }
        return (String(decoding: data, as: UTF8.self), false)
    }

    /// What the server sends up to and including the first blank line (one response head), or less when it closes the
    /// connection or `timeout` passes first. Reads one byte at a time so that nothing after the head is taken.
    static func readHead(_ fd: Int32, timeout: Double) -> String {
        var data = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var byte: UInt8 = 0
        var time = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        while Date() < deadline, !data.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(fd, &byte, 1, 0)
            if count == 1 {
                data.append(byte)
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                break
            }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Sends a request on a new connection and reads the answer until the server closes it (nil: no connection).
    static func exchange(_ request: String, port: Int, from: String = "127.0.0.1", timeout: Double) -> String? {
        guard let fd = connect(port: port, from: from, timeout: timeout) else { return nil }
        defer { close(fd) }
        guard send(request, on: fd) else { return nil }
        let answer = readAll(fd, timeout: timeout)
        return answer.text.isEmpty ? nil : answer.text
    }
}

private extension Array where Element: Equatable {
    func ends(with suffix: [Element]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
