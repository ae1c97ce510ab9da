import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietSQLite
@testable import WDietServer

@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    /// `METHOD /path` for every operation under `paths:`, read line by line: a path is a key indented two
    /// spaces that starts with "/", an operation a method key indented four spaces below it.
    static func documentedOperations(_ yaml: String) -> Set<String> {
        let methods: Set<String> = ["get", "put", "post", "patch", "delete", "head", "options", "trace"]
        var result = Set<String>()
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") {
                inPaths = line == "paths:"
                path = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let key = line.dropFirst(4).prefix { $0 != ":" }
                if methods.contains(String(key)) { result.insert("\(key.uppercased()) \(path)") }
            }
        }
        return result
    }

    /// Every route the running router has under /api/v1, as the document spells it (relative to its server URL).
    static func routedOperations() throws -> Set<String> {
        let router = buildRouter(services: AppServices(database: try AppDatabase.inMemory()), configuration: ServerConfiguration())
        return Set(router.routes.compactMap { route -> String? in
            let path = route.path.description
            guard path.hasPrefix("/api/v1/") else { return nil }
            return "\(route.method.rawValue) \(path.dropFirst("/api/v1".count))"
        })
    }

    @Test("the document and the router list the same operations")
    func matchesRouter() throws {
        let documented = Self.documentedOperations(OpenAPIDocument.yaml)
        let routed = try Self.routedOperations()
        #expect(documented.count >= 19)
        #expect(routed.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
        #expect(documented.subtracting(routed).sorted() == [], "documented operations the server does not have")
        for operation in ["GET /profile", "PUT /profile", "GET /plan", "GET /dashboard", "GET /foods/search", "POST /meals", "GET /meals",
                          "PATCH /meals/{id}", "DELETE /meals/{id}", "POST /weights", "GET /weights", "POST /auth/guest"] {
            #expect(documented.contains(operation), "\(operation)")
        }
    }

    @Test("the line reader finds paths and methods, and nothing under components")
    func reader() {
        let yaml = """
        openapi: 3.1.0
        paths:
          /a:
            get:
              summary: x
              responses:
                "200": { description: ok }
            post:
              requestBody:
                content: {}
          /b/{id}:
            parameters: []
            delete:
              summary: y
        components:
          schemas:
            get:
              type: object
        """
        #expect(Self.documentedOperations(yaml) == ["GET /a", "POST /a", "DELETE /b/{id}"])
    }

    @Test("served at /api/v1/openapi.yaml without a session, as YAML, with the error shape")
    func served() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.execute(uri: "/api/v1/openapi.yaml", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/yaml; charset=utf-8")
            let text = String(buffer: response.body)
            #expect(text.hasPrefix("openapi: 3.1.0\n"))
            #expect(text.contains("    Error:\n"))
            #expect(text == OpenAPIDocument.yaml)
        }
    }

    @Test("every $ref points at a defined component")
    func references() throws {
        let yaml = OpenAPIDocument.yaml
        let refs = yaml.matches(of: /\$ref: "#\/components\/(\w+)\/(\w+)"/).map { (String($0.1), String($0.2)) }
        #expect(refs.count > 50)
        // Every `$ref` in the text has the form read above, so none escapes the check.
        #expect(yaml.matches(of: /\$ref:/).count == refs.count, "a $ref that is not \"#/components/<section>/<Name>\"")
        var defined = Set<String>()
        var section: String?
        var inComponents = false
        for line in yaml.split(separator: "\n") {
            if !line.hasPrefix(" ") { inComponents = line == "components:"; continue }
            guard inComponents else { continue }
            if line.hasPrefix("  "), !line.hasPrefix("   ") { section = String(line.dropFirst(2).dropLast()) }
            if let section, line.hasPrefix("    "), !line.hasPrefix("     ") {
                defined.insert("\(section)/\(line.dropFirst(4).prefix { $0 != ":" })")
            }
        }
        for (section, name) in refs {
            #expect(defined.contains("\(section)/\(name)"), "#/components/\(section)/\(name)")
        }
    }
}
