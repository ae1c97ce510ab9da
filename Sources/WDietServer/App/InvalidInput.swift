import WDietCore

/// What a use case (`MealLogging`, `WeightLogging`, `AccountService`) throws when a person's input breaks a rule: a
/// message per field, keyed by the API's member names, in the words the design documents give. It knows nothing of
/// HTTP: the API answers it with 422 (`APIError.from`), a web form shows the messages beside its fields.
struct InvalidInput: Error, Equatable, Sendable {
    var fields: [String: String]
    var message: String

    init(_ fields: [String: String], message: String? = nil) {
        self.fields = fields
        self.message = message ?? (fields.count == 1 ? fields.values.first! : Self.checkFields)
    }

    static var checkFields: String { Strings.current("api.checkFields") }
}
