import Foundation
import Testing

/// `wdiet serve`'s SMTP settings that would expose a password or cannot work stop the start with one line
/// (issue 21 item 11, docs/operations.md "Email").
@Suite("wdiet serve: SMTP security settings")
struct ServeSMTPSettingsTests {
    static func serve(_ smtp: [String], environment: [String: String] = [:]) async throws -> CLI.Output {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await CLI.run(
            ["serve", "--port", "18996", "--database", folder.appendingPathComponent("wdiet.sqlite").path, "--from", "/nonexistent-sr28",
             "--smtp-from", "no-reply@diet.example.org", "--public-url", "https://diet.example.org"] + smtp,
            environment: environment)
    }

    @Test("a password in clear text to another machine is refused")
    func clearTextPassword() async throws {
        let output = try await Self.serve(
            ["--smtp-host", "smtp.example.org", "--smtp-security", "none", "--smtp-username", "wdiet"],
            environment: ["WDIET_SMTP_PASSWORD": "s3cret"])
        #expect(output.status == 1)
        #expect(output.stderrLines.last
            == "wdiet: Could not start: --smtp-security none would send the SMTP password in clear text to smtp.example.org, which is not this machine: use starttls or tls")
        #expect(!output.stderr.contains("s3cret"))
    }

    @Test("a CA file that is not there, and a security that does not exist")
    func badSettings() async throws {
        let missing = try await Self.serve(["--smtp-host", "smtp.example.org", "--smtp-ca-file", "/nonexistent/mail-ca.pem"])
        #expect(missing.status == 1)
        #expect(missing.stderrLines.last == "wdiet: Could not start: --smtp-ca-file /nonexistent/mail-ca.pem is not a readable PEM file of certificates")
        let unknown = try await Self.serve(["--smtp-host", "smtp.example.org", "--smtp-security", "ssl"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("--smtp-security must be starttls, tls or none."))
        let fromEnvironment = try await Self.serve(["--smtp-host", "smtp.example.org"], environment: ["WDIET_SMTP_SECURITY": "ssl"])
        #expect(fromEnvironment.status == 1)
        #expect(fromEnvironment.stderrLines.last == "wdiet: Could not start: --smtp-security (or $WDIET_SMTP_SECURITY) must be starttls, tls or none")
    }
}
