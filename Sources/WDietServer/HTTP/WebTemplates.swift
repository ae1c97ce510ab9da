import Foundation
import Hummingbird
import Mustache

/// The web app's Mustache templates, loaded once from the package's resources.
enum WebTemplates {
    /// Loaded lazily; a missing or broken template is reported per request (as an error page), never a crash.
    static let library: Result<MustacheLibrary, any Error> = Result {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("templates") else {
            throw WebError.templatesMissing
        }
        var library = MustacheLibrary()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mustache") }
        for name in names.sorted() {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            try library.register(text, named: String(name.dropLast(".mustache".count)))
        }
        return library
    }

    /// The folder of static files (CSS, JS), served under /assets.
    static var publicFolder: String {
        Bundle.module.resourceURL?.appendingPathComponent("public").path ?? "public"
    }

    /// Renders a page as an HTML response.
    static func page(_ name: String, _ values: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        guard let html = try library.get().render(values, withTemplate: name) else { throw WebError.templatesMissing }
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }

    enum WebError: Error { case templatesMissing }
}
