import ArgumentParser
import Foundation
import WDietCore

/// `wdiet client profile`: sets the profile locally (meals and weights are dated in its time zone).
struct ClientProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Set the profile on this device (synced at the next `wdiet client sync`)."
    )

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "male, female or other") var sex: Sex
    @Option(help: "Date of birth, YYYY-MM-DD.") var born: String
    @Option(name: .customLong("height-cm"), help: "Height in cm (50–300).") var heightCm: Double
    @Option(name: .customLong("weight-kg"), help: "Current weight in kg (20–500).") var weightKg: Double
    @Option(help: "sedentary, light, moderate, very or extreme") var activity: ActivityLevel
    @Option(help: "lose, maintain or gain") var goal: Goal
    @Option(name: .customLong("time-zone"), help: "IANA time zone (default: this machine's).") var timeZone: String?
    @Option(help: "Day 1 of the plan, YYYY-MM-DD (default: today, or the current profile's).") var start: String?

    func run() throws {
        guard let dateOfBirth = LocalDate(iso: born) else { throw ValidationError("--born must be a date as YYYY-MM-DD, not '\(born)'") }
        let zone: TimeZone
        if let timeZone {
            guard let named = TimeZone(identifier: timeZone) else {
                throw ValidationError("Unknown time zone '\(timeZone)' (expected an IANA name such as Europe/Berlin)")
            }
            zone = named
        } else {
            zone = .current
        }
        let store = try options.open()
        let current = try store.profile()
        let planStart: LocalDate
        if let start {
            guard let date = LocalDate(iso: start) else { throw ValidationError("--start must be a date as YYYY-MM-DD, not '\(start)'") }
            planStart = date
        } else {
            planStart = current?.planStartDate ?? LocalDate(Date(), in: zone)
        }
        var profile = current ?? Profile(
            dateOfBirth: dateOfBirth, sex: sex, heightCm: heightCm, weightKg: weightKg, goal: goal, activity: activity,
            planStartDate: planStart)
        profile.dateOfBirth = dateOfBirth
        profile.sex = sex
        profile.heightCm = heightCm
        profile.weightKg = weightKg
        profile.activity = activity
        profile.goal = goal
        profile.timeZoneIdentifier = zone.identifier
        profile.planStartDate = planStart
        // The form's rules for the dates a stored profile does not re-check.
        let today = LocalDate(Date(), in: zone)
        if let error = ProfileValidator.errors(in: ProfileDraft(profile), today: today).first(where: { $0.field == .dateOfBirth }) {
            throw ValidationError(error.message)
        }
        try store.saveProfile(profile)
        print("Profile saved on this device; `wdiet client sync` sends it.")
    }
}
