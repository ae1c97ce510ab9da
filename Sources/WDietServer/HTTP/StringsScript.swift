import Foundation
import Hummingbird
import WDietCore

/// The catalog for the web app's scripts: `/strings/<language>-<version>.js` sets `window.WDietStrings`, which
/// `WDiet.t` reads. Its name changes with its content, so a browser may keep it for a year and never holds a stale one.
enum StringsScript {
    /// "de-3f1a9c02": the file name (without ".js") each page's layout links for its language.
    static func name(for language: Language) -> String { names[language] ?? language.tag }

    private static let bodies: [Language: String] = Dictionary(uniqueKeysWithValues: Language.allCases.map { language in
        (language, "window.WDietStrings = \(Strings.of(language).scriptJSON);\nwindow.WDietLanguage = \"\(language.tag)\";\n")
    })

    private static let names: [Language: String] = Dictionary(uniqueKeysWithValues: Language.allCases.map { language in
        (language, "\(language.tag)-\(fnv1a(bodies[language] ?? ""))")
    })

    /// FNV-1a, 32 bits, as hex: a content fingerprint, not a security measure.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return String(hash, radix: 16)
    }

    static func addRoute(to router: Router<AppRequestContext>) {
        router.get("/strings/:file") { _, context -> Response in
            let file = context.parameters.get("file") ?? ""
            guard let language = Language.allCases.first(where: { "\(name(for: $0)).js" == file }),
                  let body = bodies[language]
            else { throw HTTPError(.notFound) }
            return Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=31536000, immutable"],
                body: .init(byteBuffer: ByteBuffer(string: body))
            )
        }
    }
}
