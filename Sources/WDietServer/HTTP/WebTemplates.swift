import Foundation
import Hummingbird
import Mustache
import WDietCore

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

    /// Renders a page as an HTML response, in the request's language (`Strings.current`).
    static func page(_ name: String, _ values: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        let strings = Strings.current
        guard let html = try library.get().render(PageRoot(values: values, strings: strings), withTemplate: name) else {
            throw WebError.templatesMissing
        }
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentLanguage: strings.language.tag],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }

    enum WebError: Error { case templatesMissing }
}

/// What a template sees at its root: the page's own values, and beside them the catalog in the page's language
/// (`{{t.<file>.<key>}}`), the language's tag (`{{lang}}`), the account's theme (`{{theme}}`, absent for Auto) and the name of its script catalog (`{{stringsScript}}`).
/// Sections see them too, since Mustache looks names up the context stack.
struct PageRoot: MustacheParent {
    let values: Any
    let strings: Strings
    /// The page value's properties by name, reflected once per render: a template looks its names up over and over
    /// (every `{{t.…}}` in a section falls through to here), and a `Mirror` scan per lookup was about 9 % of the
    /// Challenge Home page's CPU time (perf, docs/benchmarks.md "Challenge Home").
    private let properties: [String: Any]

    init(values: Any, strings: Strings) {
        self.values = values
        self.strings = strings
        var properties: [String: Any] = [:]
        if !(values is MustacheParent) {
            for child in Mirror(reflecting: values).children {
                if let label = child.label, properties[label] == nil { properties[label] = child.value }
            }
        }
        self.properties = properties
    }

    func child(named name: String) -> Any? {
        switch name {
        case "t": return strings.templateTree
        case "lang": return strings.language.tag
        case "theme": return PageTheme.chosen?.rawValue
        case "stringsScript": return StringsScript.name(for: strings.language)
        default:
            if let parent = values as? MustacheParent { return parent.child(named: name) }
            guard let value = properties[name] else { return nil }
            return Self.unwrapped(value)
        }
    }

    /// An optional property's value, or nil for none, as Mustache's own lookup gives it (a nil must not read as "nil").
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let wrapped = mirror.children.first?.value else { return nil }
        return unwrapped(wrapped)
    }
}
