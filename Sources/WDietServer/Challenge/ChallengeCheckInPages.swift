import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The Weekly Check-In (003): the week's photo (a large square preview, "Late Upload" in orange after the Monday,
/// "Edit Photo" once there is one; uploaded by `challenge.js` through the media store), the weigh-in and optional
/// measurements, "Save Check-In". One weigh-in a week: a second one is "Already logged this week" and offers the edit.
extension ChallengePages {
    func registerCheckIn(on group: RouterGroup<WebUserContext>) {
        group.get("/challenge/check-in") { request, context in
            let query = request.uri.queryParameters
            return try await checkInPage(context, week: query.get("week"), editing: query.get("edit") != nil, notice: Self.notice(request))
        }
        group.post("/challenge/check-in/weigh-in") { _, context in try await saveWeighIn(context) }
    }

    struct CheckInPage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var empty: ChallengeEmpty?
        var notice: String?
        var week: CheckInWeek?
    }

    struct CheckInWeek: Sendable {
        var week: Int
        var weekLabel: String
        var previousHref: String?
        var nextHref: String?
        var photoSrc: String?
        var photoState: ChallengeState
        var photoLate: Bool
        var photoButton: String
        var weighInState: ChallengeState
        var alreadyLogged: Bool
        var showForm: Bool
        var mode: String
        var weight: String
        var waist: String
        var hips: String
        var chest: String
        var notes: String
        var weightLabel: String
        var lengthUnit: String
        var measurementsOpen: Bool
        var saveLabel: String
        var editHref: String
        var weightError: String?
        var formError: String?
        var summary: String?
        var score: ChallengeScoreValue
    }

    func checkInPage(_ context: WebUserContext, week asked: String?, editing: Bool, notice: String? = nil,
                     invalid: (fields: [String: String], form: WebForm)? = nil, alreadyLogged: Bool = false) async throws -> Response {
        let userId = context.userId
        let title = Strings.current("challenge.checkInTitle")
        guard let stored = try await service.store.current(userId: userId) else {
            return try WebTemplates.page("challenge-check-in", CheckInPage(chrome: chrome(context), frame: ChallengeFrame(tab: .checkIn), title: title, empty: Self.startEmpty))
        }
        let challenge = stored.value
        let today = try await service.context(userId: userId).today
        let data = try await service.data(challenge, userId: userId)
        let frame = try await frame(.checkIn, settings: data.settings, userId: userId)
        guard today >= challenge.startDate else {
            let empty = ChallengeEmpty(icon: "calendar", prompt: Strings.current("challenge.homeUpcoming", [
                "date": Strings.current.date(challenge.startDate, .long), "days": String(today.days(until: challenge.startDate)),
            ]))
            return try WebTemplates.page("challenge-check-in", CheckInPage(chrome: chrome(context), frame: frame, title: title, empty: empty))
        }
        let current = challenge.currentWeek(today: today)
        var week = current
        if let asked, !asked.isEmpty {
            guard let number = Int(asked), (1...current).contains(number) else {
                throw APIError.badRequest(Strings.current("challenge.checkInWeekInvalid", ["max": String(current)]))
            }
            week = number
        }
        let strings = Strings.current
        let unit = challenge.weightUnit
        let photo = data.photos[week], weighIn = data.weighIns[week]
        let photoState = Self.photoState(photo, challenge: challenge)
        let lengthUnit = unit == .lb ? strings("challenge.unitIn") : strings("challenge.unitCm")
        func length(_ cm: Double?) -> String {
            guard let cm else { return "" }
            return ChallengeFormat.number(unit == .lb ? Units.tenth(cm / Units.centimetresPerInch) : cm)
        }
        let editMode = weighIn != nil
        var value = CheckInWeek(
            week: week,
            weekLabel: strings("challenge.checkInWeek", ["week": String(week), "date": strings.date(challenge.monday(ofWeek: week), .weekdayDayMonth)]),
            previousHref: week > 1 ? "/challenge/check-in?week=\(week - 1)" : nil,
            nextHref: week < current ? "/challenge/check-in?week=\(week + 1)" : nil,
            photoSrc: photo.map { "/api/v1/media/\($0.mediaId.uuidString.lowercased())?size=thumb" },
            photoState: photoState, photoLate: photoState.kind == "late",
            photoButton: strings(photo == nil ? "challenge.uploadPhoto" : "challenge.editPhoto"),
            weighInState: Self.weighInState(weighIn, challenge: challenge),
            alreadyLogged: editMode || alreadyLogged, showForm: !editMode || editing || alreadyLogged || invalid != nil,
            mode: editMode ? "edit" : "new",
            weight: weighIn.map { ChallengeFormat.weightField($0.kg, unit: unit) } ?? "",
            waist: length(weighIn?.waistCm), hips: length(weighIn?.hipsCm), chest: length(weighIn?.chestCm), notes: weighIn?.notes ?? "",
            weightLabel: strings(unit == .lb ? "challenge.weightInLb" : "challenge.weightInKg"), lengthUnit: lengthUnit,
            measurementsOpen: weighIn?.waistCm != nil || weighIn?.hipsCm != nil || weighIn?.chestCm != nil,
            saveLabel: strings(editMode ? "challenge.updateCheckIn" : "challenge.saveCheckIn"),
            editHref: "/challenge/check-in?week=\(week)&edit=1#weigh-in",
            summary: weighIn.map { weighIn in
                var parts = [ChallengeFormat.weight(weighIn.kg, unit: unit)]
                for (key, cm) in [("challenge.waist", weighIn.waistCm), ("challenge.hips", weighIn.hipsCm), ("challenge.chest", weighIn.chestCm)] {
                    if let cm { parts.append(strings(key) + " " + length(cm) + " " + lengthUnit) }
                }
                return parts.joined(separator: " · ")
            },
            score: ChallengeScoreValue(data.score(week: week, today: today)))
        if let invalid {
            let form = invalid.form
            value.weight = form.text("weight"); value.waist = form.text("waist"); value.hips = form.text("hips")
            value.chest = form.text("chest"); value.notes = form.text("notes")
            value.measurementsOpen = !(value.waist + value.hips + value.chest).isEmpty
            value.weightError = invalid.fields["weight"]
            value.formError = invalid.fields.filter { $0.key != "weight" }.values.sorted().first
        }
        let page = CheckInPage(chrome: chrome(context), frame: frame, title: title, notice: notice, week: value)
        let status: HTTPResponse.Status = invalid != nil ? .unprocessableContent : alreadyLogged ? .conflict : .ok
        return try WebTemplates.page("challenge-check-in", page, status: status)
    }

    func saveWeighIn(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        guard let week = Int(form.text("week")), Challenge.weeksRange.contains(week) else {
            throw APIError.badRequest(Strings.current("challenge.weekRange", ["max": String(Challenge.weeksRange.upperBound)]))
        }
        var body = ChallengeWeighInBody()
        body.weight = Self.number(form, "weight")
        body.waist = Self.number(form, "waist"); body.hips = Self.number(form, "hips"); body.chest = Self.number(form, "chest")
        body.notes = .value(form.text("notes"))
        do {
            _ = try await service.saveWeighIn(body, week: week, isNew: form.text("mode") != "edit", userId: context.userId)
        } catch is ChallengeAlreadyLogged {
            // A page opened before this week's weigh-in was saved (another tab or device): say so and offer the edit.
            return try await checkInPage(context, week: String(week), editing: true, notice: nil, alreadyLogged: true)
        } catch let invalid as InvalidInput {
            return try await checkInPage(context, week: String(week), editing: true, invalid: (invalid.fields, form))
        }
        return Self.redirect("/challenge/check-in?week=\(week)&saved=weighIn")
    }
}
