import Foundation
import WDietCore

/// `POST /api/v1/favourites`: a catalog food (`foodId`, optionally `grams` or `portion` + `quantity`, `name`) or a
/// manual meal (`name`, `calories`, macros), with a client-made `id` that makes a retry harmless. The members are
/// `MealBody`'s, so a meal on screen stars as it was logged.
typealias FavouriteBody = MealBody

/// `POST /api/v1/saved-meals` and `PUT /api/v1/saved-meals/{id}`: a name, the items (each a `MealBody`: a catalog
/// food by grams or portion, or a manual item with its values), how many servings they make, and an optional slot.
struct SavedMealBody: Decodable, Sendable {
    var id: String?
    /// On a replace: the version the client's copy was read at. When the saved meal changed since (another device),
    /// nothing is written and the answer is 409 with the current one to look at again.
    var baseVersion: Int64?
    var name: String?
    var servings: NumberInput?
    var slot: String?
    var items: [MealBody]?
}

/// `POST /api/v1/saved-meals/{id}/log`: how many servings were eaten (default 1), when (`loggedAt`, default now; or
/// `date`, the day at the current local time), in which slot (default the saved meal's, else the time's), and a
/// client-made `requestId` from which each meal's id is derived, so a retry logs nothing twice.
struct LogSavedMealBody: Decodable, Sendable {
    var servings: NumberInput?
    var loggedAt: Date?
    var date: LocalDate?
    var slot: String?
    var requestId: String?
}

/// `POST /api/v1/meals/batch`: several meals at once (each a `MealBody` with its own client `id`), saved in one
/// transaction; `loggedAt`, `date` and `slot` apply to the items that leave them out.
struct MealBatchBody: Decodable, Sendable {
    var items: [MealBody]?
    var loggedAt: Date?
    var date: LocalDate?
    var slot: String?
}

/// `POST /api/v1/meals/copy`: the meals of `fromDate` (all, one `slot`'s, or the `mealIds` named) copied to `toDate`
/// (default today), each a new meal at the same local time of day, in `toSlot` if given (else its own slot);
/// `requestId` makes a retry harmless.
struct MealCopyBody: Decodable, Sendable {
    var fromDate: LocalDate?
    var toDate: LocalDate?
    var slot: String?
    var toSlot: String?
    var mealIds: [String]?
    var requestId: String?
}
