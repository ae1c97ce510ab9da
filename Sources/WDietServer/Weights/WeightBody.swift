import Foundation
import WDietCore
import WDietStore

/// The body of `POST /api/v1/weights`: `{kg}` or `{lb}` (whichever the user reads in), `loggedAt?` (default now)
/// and a client-generated `id?`. Stored in kg to 0.1 kg.
struct WeightBody: FlatJSONDecodable, Equatable, Sendable {
    var id: JSONField<String>
    var kg: JSONField<NumberInput>
    var lb: JSONField<NumberInput>
    var loggedAt: JSONField<Date>

    /// The body from a flat object of its members (see `FlatJSONObject`); nil when `JSONDecoder` must judge it.
    init?(flatJSON object: FlatJSONObject) {
        guard let id = object.text("id"), let loggedAt = object.instant("loggedAt") else { return nil }
        self.id = id
        kg = object.number("kg")
        lb = object.number("lb")
        self.loggedAt = loggedAt
    }

    static var bothUnits: String { Strings.current("weights.bothUnits") }

    /// The entry, or 422 with the weight form's messages under the member that was sent (`unit`'s when none was).
    func entry(id: UUID, unit: WeightUnit, now: Date) throws(InvalidInput) -> WeightEntry {
        var errors: [String: String] = [:]
        var loggedAt = now
        switch self.loggedAt {
        case .absent: break
        case .null: errors["loggedAt"] = StoreValidation.Message.instant
        case .value(let date):
            if StoreValidation.instantRange.contains(date) { loggedAt = date } else { errors["loggedAt"] = StoreValidation.Message.instant }
        }
        if kg.isPresent, lb.isPresent { errors["kg"] = Self.bothUnits }
        let member = lb.isPresent || (!kg.isPresent && unit == .lb) ? "lb" : "kg"
        var kilograms: Double?
        switch (member == "lb" ? lb : kg).numeric {
        case .missing, .invalid:
            errors[member] = errors[member] ?? ProfileValidator.Message.notANumber
        case .value(let v):
            let value = member == "lb" ? Units.kilograms(fromPounds: v) : Units.tenth(v)
            if value < ProfileValidator.weightRangeKg.lowerBound {
                errors[member] = ProfileValidator.Message.weightTooLow
            } else if value > ProfileValidator.weightRangeKg.upperBound {
                errors[member] = ProfileValidator.Message.weightTooHigh
            } else {
                kilograms = value
            }
        }
        guard errors.isEmpty, let kilograms else { throw InvalidInput(errors) }
        return WeightEntry(id: id, kg: kilograms, loggedAt: loggedAt)
    }
}
