import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 21 items 2 and 5, against the real `wdiet serve` process: connections that never finish a request are
/// closed, one address cannot hold the server's file descriptors, and a second server on one SQLite file is refused.
@Suite(.serialized) struct ServeHardeningTests {
    static func database() throws -> String {
        try CLI.temporaryDirectory().appendingPathComponent("serve.sqlite").path
    }

    /// The audit's attack: 300 idle sockets against a server whose file limit is 256 made every request time out (the
    /// process could accept no more connections). With the per-address cap (64 by default) the idle sockets of one
    /// address are closed at once beyond it, so a client from another address is served at once.
    @Test func threeHundredIdleSocketsUnderALowFileLimitDoNotStopANewClient() async throws {
        let port = ServeProcess.freePort()
        let serve = try await ServeProcess.start(["--database", try Self.database(), "--from", "/nonexistent"], port: port, fileLimit: 256)
        defer { serve.stop() }
        var idle: [Int32] = []
        defer { idle.forEach { _ = close($0) } }
        for _ in 0..<300 {
            if let fd = RawHTTP.connect(port: port, timeout: 1) { idle.append(fd) }
        }
        #expect(idle.count >= 250, "the attack's sockets were connected (\(idle.count))")
        try await Task.sleep(nanoseconds: 1_000_000_000)  // the server has accepted (or refused) what it will

        // Before the cap this request got no answer at all; the exchange's own 10 s bound is the only clock here.
        let answer = RawHTTP.exchange("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", port: port, from: "127.0.0.2", timeout: 10)
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "a client from 127.0.0.2 is served: \(answer ?? "no answer")")
        #expect(serve.process.isRunning)
    }

    /// Idle, half-sent heads, a body shorter than its Content-Length and HTTP/0.9 were waited on forever; now each is
    /// closed once the read timeout (1 s here) passes without a byte, and a request that completes is answered.
    @Test func connectionsThatNeverFinishARequestAreClosedAfterTheReadTimeout() async throws {
        let port = ServeProcess.freePort()
        let serve = try await ServeProcess.start(["--database", try Self.database(), "--from", "/nonexistent", "--read-timeout", "2"], port: port)
        defer { serve.stop() }
        let stalls = [
            "idle": "",
            "half a head": "GET /health HTTP/1.1\r\nHost: t\r\n",
            "short body": "POST /api/v1/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":",
            "HTTP/0.9": "GET /\r\n",
        ]
        for (name, request) in stalls {
            let fd = try #require(RawHTTP.connect(port: port))
            defer { close(fd) }
            if !request.isEmpty { #expect(RawHTTP.send(request, on: fd)) }
            // Before the timeout these were never closed: closed within the read's 60 s bound is the rule (a 2 s
            // timeout met late on a loaded machine is still met; forever is not).
            let read = RawHTTP.readAll(fd, timeout: 60)
            #expect(read.closed, "\(name): closed by the server")
        }
        // A connection that keeps talking is not cut: two requests 0.5 s apart on one connection (well inside the 2 s
        // timeout). The pause blocks this thread rather than sleeping a task: during the full run a task's wake-up on
        // the busy cooperative pool came more than 2 s late, and the server then rightly closed the idle connection.
        let fd = try #require(RawHTTP.connect(port: port))
        defer { close(fd) }
        #expect(RawHTTP.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n", on: fd))
        let firstSent = Date()
        usleep(500_000)
        let gap = Date().timeIntervalSince(firstSent)
        #expect(RawHTTP.send("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", on: fd))
        let both = RawHTTP.readAll(fd, timeout: 5).text
        #expect(both.components(separatedBy: "HTTP/1.1 200").count - 1 == 2, "both answered (\(gap) s apart): \(both)")
    }

    /// The per-address cap itself: with 3 allowed, the 4th connection from one address is closed at once, another
    /// address is still served, and a closed connection frees its place.
    @Test func theFourthConnectionOfAnAddressIsClosedWithACapOfThree() async throws {
        let port = ServeProcess.freePort()
        let serve = try await ServeProcess.start(
            ["--database", try Self.database(), "--from", "/nonexistent", "--connections-per-address", "3"], port: port)
        defer { serve.stop() }
        try await Task.sleep(nanoseconds: 300_000_000)  // the start-up check's connection is gone
        var held = (0..<3).compactMap { _ in RawHTTP.connect(port: port) }
        defer { held.forEach { _ = close($0) } }
        #expect(held.count == 3)
        let fourth = try #require(RawHTTP.connect(port: port))
        let refused = RawHTTP.readAll(fourth, timeout: 3)
        close(fourth)
        #expect(refused.closed && refused.text.isEmpty, "the 4th is closed without a word")
        let other = RawHTTP.exchange("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", port: port, from: "127.0.0.3", timeout: 5)
        #expect(other?.hasPrefix("HTTP/1.1 200") == true)
        close(held.removeLast())
        try await Task.sleep(nanoseconds: 300_000_000)
        let again = RawHTTP.exchange("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", port: port, timeout: 5)
        #expect(again?.hasPrefix("HTTP/1.1 200") == true, "a place was freed")
    }

    /// A client that sends `Expect: 100-continue` (curl for any body over 1 MB) holds its body back until the server
    /// says go on; Hummingbird never did, so every such upload waited out the client's timer (curl: 1 s) first. Now
    /// `100 Continue` comes before a byte of the body is sent, and the request's own answer follows on the body.
    @Test func expectContinueIsAnsweredBeforeTheBodyIsSent() async throws {
        let port = ServeProcess.freePort()
        let serve = try await ServeProcess.start(["--database", try Self.database(), "--from", "/nonexistent"], port: port)
        defer { serve.stop() }
        let body = #"{"email": "#
        let fd = try #require(RawHTTP.connect(port: port))
        defer { close(fd) }
        #expect(RawHTTP.send(
            "POST /api/v1/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Expect: 100-Continue\r\nConnection: close\r\n\r\n", on: fd))
        // The read's 60 s bound is no clock on the answer: before, nothing came until the body did.
        #expect(RawHTTP.readHead(fd, timeout: 60) == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(RawHTTP.send(body, on: fd))
        let answer = RawHTTP.readAll(fd, timeout: 60).text
        #expect(answer.hasPrefix("HTTP/1.1 400"), "the truncated JSON is read and refused: \(answer)")
        #expect(!answer.contains("100 Continue"))

        // Without the header, no interim answer.
        let plain = RawHTTP.exchange(
            "POST /api/v1/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + body, port: port, timeout: 60)
        #expect(plain?.hasPrefix("HTTP/1.1 400") == true, "\(plain ?? "no answer")")
    }

    /// Item 5: the second `wdiet serve` on one SQLite file started and served stale copies; now it stops at once
    /// with one line, and the first goes on serving.
    @Test func aSecondServerOnOneSQLiteFileIsRefusedWithOneLine() async throws {
        let path = try Self.database()
        let first = try await ServeProcess.start(["--database", path, "--from", "/nonexistent"], port: ServeProcess.freePort())
        defer { first.stop() }
        let second = try await ServeProcess.start(["--database", path, "--from", "/nonexistent"], port: ServeProcess.freePort(), waitUntilServing: false)
        defer { second.stop() }
        let status = try await second.waitForExit(seconds: 20)
        #expect(status != nil && status != 0, "the second server exits, with an error status")
        let lines = second.errors.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(second.errors)")
        #expect(lines.first?.contains("\(path) is already served by another wdiet serve (process \(first.process.processIdentifier))") == true, "\(second.errors)")
        #expect(first.process.isRunning)
        let answer = RawHTTP.exchange("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", port: first.port, timeout: 5)
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true)
        // Once the first has stopped, the file can be served again (the kernel released the lock with the process).
        first.stop()
        let third = try await ServeProcess.start(["--database", path, "--from", "/nonexistent"], port: ServeProcess.freePort())
        third.stop()
    }
}
