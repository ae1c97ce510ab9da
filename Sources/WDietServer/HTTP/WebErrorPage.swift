import Hummingbird
import WDietCore

/// The web app's error page, in the words of 000 "Error States": "Something went wrong", a plain message,
/// "Try Again" and "Go Back". The API keeps its JSON errors.
enum WebErrorPage {
    struct Values {
        var message: String
        var retryPath: String
    }

    static func response(for error: APIError, path: String) throws -> Response {
        let message: String
        switch error.status.code {
        case 404: message = Strings.current("errors.pageNotFound")
        case 400..<500: message = error.message
        default: message = Strings.current("errors.pageFailed")
        }
        // Only same-site paths go back into the page's links.
        let retry = path.hasPrefix("/") && !path.hasPrefix("//") ? path : "/"
        return try WebTemplates.page("error", Values(message: message, retryPath: retry), status: error.status)
    }
}
