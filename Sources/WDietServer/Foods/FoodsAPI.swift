import Foundation
import Hummingbird
import WDietCore
import WDietFoodData
import WDietStore

/// `GET /api/v1/foods/search?q=&limit=`: as-you-type search in the USDA catalog.
struct FoodsAPI: Sendable {
    let services: AppServices
    let cache = FoodSearchCache()

    static let defaultLimit = 20
    static let limitRange = 1...50
    static let maxQueryLength = 200

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("foods/search", use: search)
    }

    /// `{"results": [...]}`, from `cache` when someone searched the same recently.
    @Sendable func search(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (query, limit) = try Self.parameters(request.uri.queryParameters.get("q"), limit: request.uri.queryParameters.get("limit"))
        let key = FoodSearchCache.key(query: query, limit: limit)
        let now = Date()
        let body: ByteBuffer
        if let cached = cache.body(for: key, at: now) {
            body = cached
        } else {
            let results = try await services.foods.searchFoods(query, limit: limit)
            body = ByteBuffer(bytes: FoodSearchJSON(results).jsonBytes())
            cache.store(body, for: key, at: now)
        }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
    }

    /// The query and limit, or 400 naming the parameter that is wrong.
    static func parameters(_ q: String?, limit: String?) throws(APIError) -> (query: String, limit: Int) {
        let query = trimmed(q ?? "")
        let strings = Strings.current
        guard !query.isEmpty else { throw .badRequest(strings("foods.searchEmpty"), fields: ["q": strings("foods.required")]) }
        guard query.count <= maxQueryLength else {
            throw .badRequest(strings("foods.searchTooLong"), fields: ["q": strings("foods.atMostCharacters", count: maxQueryLength)])
        }
        guard let limit else { return (query, defaultLimit) }
        guard let value = Int(limit), limitRange.contains(value) else {
            let range = ["min": strings.number(limitRange.lowerBound), "max": strings.number(limitRange.upperBound)]
            throw .badRequest(strings("foods.limitInvalid", range), fields: ["limit": strings("foods.limitRange", range)])
        }
        return (query, value)
    }

    /// Without white space and newlines at either end. A query that begins and ends with a visible ASCII character
    /// (nearly every one) is returned as it is: Foundation's `trimmingCharacters` goes through NSString, and was
    /// ~1 % of an uncached search's server CPU.
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct FoodSearchJSON: ResponseEncodable, Sendable {
    let foods: [FoodSearchResult]
    /// Short names that tell the page's foods apart (`FoodDisplayName.short(_:)` on the whole page).
    let shortNames: [String]

    init(_ results: [FoodSearchResult]) {
        foods = results
        shortNames = FoodDisplayName.short(results.map(\.name))
    }

    /// The page's foods as `FoodJSON` values (what `jsonBytes()` writes without building them).
    var results: [FoodJSON] { foods.indices.map { FoodJSON(foods[$0], shortName: shortNames[$0]) } }

    private enum CodingKeys: String, CodingKey { case results }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results, forKey: .results)
    }
}
