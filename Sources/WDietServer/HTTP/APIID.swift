import Foundation
import WDietStore

/// Ids as the API writes them: lowercase, as the store keeps them (Swift's `uuidString` is uppercase). Input takes
/// either case, since `UUID(uuidString:)` does; output is always this form, in JSON bodies and Location headers.
extension UUID {
    var apiText: String { WireFormat.idText(self) }
}
