/// Errors every store implementation throws. Only the server maps them to HTTP; messages are safe to show.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(String)
    case invalid(String)
    case conflict(String)
    /// The food catalog has not been imported (or its files are missing).
    case catalogMissing(String)
    /// Anything the backend reports that the user cannot act on; the detail is for logs only.
    case unavailable(String)

    public var description: String {
        switch self {
        case .notFound(let m), .invalid(let m), .conflict(let m), .catalogMissing(let m), .unavailable(let m): m
        }
    }
}
