import Foundation
import WDietCore

/// `POST /api/v1/challenge` (start) and `PUT /api/v1/challenge` (change): every member may be absent; a start fills
/// the next Monday, 17 weeks, the latest logged weight as the start weight and the profile's weight unit. Weights are
/// in kg, or in lb when `weightUnit` is `lb` (stored metric).
struct ChallengeBody: Decodable, Sendable {
    var startDate: JSONField<String> = .absent
    var weeks: JSONField<NumberInput> = .absent
    var goalWeight: JSONField<NumberInput> = .absent
    var startWeight: JSONField<NumberInput> = .absent
    var weightUnit: JSONField<String> = .absent
    var baseVersion: JSONField<Int64> = .absent
}

/// `PUT /api/v1/challenge/days/{date}/nutrition`: `status` `logged` (default) or `skipped`; `source` `typed`
/// (default: `kcal` required) or `meals` (the day's logged meals).
struct ChallengeNutritionBody: Decodable, Sendable {
    var status: JSONField<String> = .absent
    var source: JSONField<String> = .absent
    var kcal: JSONField<NumberInput> = .absent
    var protein: JSONField<NumberInput> = .absent
    var carbs: JSONField<NumberInput> = .absent
    var fat: JSONField<NumberInput> = .absent
    var notes: JSONField<String> = .absent
    var baseVersion: JSONField<Int64> = .absent
}

/// `PUT /api/v1/challenge/days/{date}/workout`: a `type`; `useTemplate: true` fills minutes and notes left out from
/// the type's template.
struct ChallengeWorkoutBody: Decodable, Sendable {
    var type: JSONField<String> = .absent
    var minutes: JSONField<NumberInput> = .absent
    var notes: JSONField<String> = .absent
    var useTemplate: JSONField<Bool> = .absent
    var baseVersion: JSONField<Int64> = .absent
}

/// `PUT /api/v1/challenge/days/{date}/habits`: members left out keep their value (false for a new day).
struct ChallengeHabitsBody: Decodable, Sendable {
    var water: JSONField<Bool> = .absent
    var steps: JSONField<Bool> = .absent
    var sleep: JSONField<Bool> = .absent
    var baseVersion: JSONField<Int64> = .absent
}

/// `PUT /api/v1/challenge/weeks/{week}/photo`: the picture's id in the media store (`POST /api/v1/media` first).
struct ChallengePhotoBody: Decodable, Sendable {
    var mediaId: JSONField<String> = .absent
    var baseVersion: JSONField<Int64> = .absent
}

/// `POST` / `PUT /api/v1/challenge/weeks/{week}/weigh-in`: `weight` (in the challenge's unit), optional `waist`,
/// `hips`, `chest` (cm, or inches when the challenge is in lb) and `notes`.
struct ChallengeWeighInBody: Decodable, Sendable {
    var weight: JSONField<NumberInput> = .absent
    var waist: JSONField<NumberInput> = .absent
    var hips: JSONField<NumberInput> = .absent
    var chest: JSONField<NumberInput> = .absent
    var notes: JSONField<String> = .absent
    var baseVersion: JSONField<Int64> = .absent
}

/// `PUT /api/v1/challenge/settings`: members left out keep their value. `reminders` is a list of
/// `{kind, enabled, time}`; `workoutTemplates` of `{type, minutes, notes}`.
struct ChallengeSettingsBody: Decodable, Sendable {
    struct Reminder: Decodable, Sendable {
        var kind: String
        var enabled: Bool?
        var time: String?
    }

    struct Template: Decodable, Sendable {
        var type: String
        var minutes: Int?
        var notes: String?
    }

    var reminders: JSONField<[Reminder]> = .absent
    var smartRules: JSONField<Bool> = .absent
    var appLock: JSONField<Bool> = .absent
    var lockAfterMinutes: JSONField<Int> = .absent
    var workoutTemplates: JSONField<[Template]> = .absent
    var baseVersion: JSONField<Int64> = .absent
}

/// `PUT /api/v1/challenge/app-lock` and `POST /api/v1/challenge/app-lock/verify`: a PIN of 4–6 digits.
struct ChallengePinBody: Decodable, Sendable {
    var pin: JSONField<String> = .absent
}
