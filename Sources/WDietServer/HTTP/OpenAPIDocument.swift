import Foundation
import Hummingbird

/// The OpenAPI 3.1 description of `/api/v1`, served at `GET /api/v1/openapi.yaml`. The document is the bundle
/// resource `Resources/openapi.yaml`, read once; `OpenAPIDocumentTests` checks that its paths and methods are
/// exactly the router's and that every `$ref` in it resolves.
enum OpenAPIDocument {
    static func addRoute(to api: RouterGroup<AppRequestContext>) {
        api.get("openapi.yaml") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8", .cacheControl: "max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: yaml))
            )
        }
    }

    /// The document's text, loaded from the module's bundle on first use. A bundle without it is a packaging bug
    /// (`Package.swift` copies `Resources/openapi.yaml`), so it stops the server rather than serving nothing.
    static let yaml: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            fatalError("OpenAPIDocument: the resource openapi.yaml is missing from the WDietServer bundle")
        }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            fatalError("OpenAPIDocument: cannot read the resource openapi.yaml at \(url.path): \(error)")
        }
    }()
}
