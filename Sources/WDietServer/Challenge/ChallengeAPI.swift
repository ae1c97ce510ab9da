import Foundation
import Hummingbird
import NIOCore
import WDietCore
import WDietStore

/// `/api/v1/challenge…`: the signed-in user's 17-week Challenge (seed 003, issue 20; docs/challenge.md). Everything
/// is the user's current challenge (the live one that started last); without one, 404. Rows are synced
/// (docs/sync.md), so what is written here reaches the user's devices by their next pull.
struct ChallengeAPI: Sendable {
    let services: AppServices

    var service: ChallengeService { ChallengeService(services: services) }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("challenge", use: home)
        group.post("challenge", use: start)
        group.put("challenge", use: update)
        group.delete("challenge", use: delete)
        group.get("challenge/days/{date}", use: day)
        group.put("challenge/days/{date}/nutrition", use: nutrition)
        group.put("challenge/days/{date}/workout", use: workout)
        group.put("challenge/days/{date}/habits", use: habits)
        // A DELETE on each PUT's own path: the router takes a literal segment (`nutrition`) and never comes back to a
        // parameter, so a `…/{kind}` DELETE beside these PUTs was never reached (issue 21 item 10, found by schemathesis).
        for kind in ["nutrition", "workout", "habits"] {
            group.delete("challenge/days/{date}/\(kind)") { request, context in try await deleteDayLog(request, context: context, kind: kind) }
        }
        group.get("challenge/weeks/{week}", use: week)
        group.put("challenge/weeks/{week}/photo", use: photo)
        group.post("challenge/weeks/{week}/weigh-in", use: newWeighIn)
        group.put("challenge/weeks/{week}/weigh-in", use: editWeighIn)
        group.get("challenge/progress", use: progress)
        group.get("challenge/summary", use: summary)
        group.get("challenge/settings", use: settings)
        group.put("challenge/settings", use: saveSettings)
        group.get("challenge/export", use: export)
    }

    // MARK: - The challenge

    /// The Home screen: the challenge, today's checklist, this week's check-in, streaks and the week's score so far.
    @Sendable func home(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            try homeJSON(try await service.snapshot(userId: context.userId, dataVersion: context.userDataVersion))
        }
    }

    /// Home from a snapshot (`ChallengeService.snapshot`: kept per user while nothing of theirs is written); the
    /// week, streaks and score are worked out for today on every request. 404 without a challenge.
    func homeJSON(_ snapshot: ChallengeSnapshot) throws -> SyncJSON {
        guard let stored = snapshot.current, let read = snapshot.read else { throw ChallengeService.noChallenge }
        let today = snapshot.context(now: services.now()).today
        let challenge = stored.value
        let data = read.data
        let week = challenge.currentWeek(today: today)
        let status = today < challenge.startDate ? "upcoming" : today > challenge.lastDate ? "finished" : "running"
        let todayRows = ChallengeJSON.DayRows(
            nutrition: read.stored(data.nutrition[today]), workout: read.stored(data.workouts[today]), habits: read.stored(data.habits[today]))
        return .object([
            "challenge": try ChallengeJSON.row(stored),
            "today": .string(today.iso),
            "status": .string(status),
            "week": ChallengeJSON.int(week),
            "dayOfChallenge": status == "running" ? ChallengeJSON.int(challenge.startDate.days(until: today) + 1) : .null,
            "todayChecklist": status == "running" ? try ChallengeJSON.day(today, data: data, stored: todayRows) : .null,
            "thisWeek": .object([
                "week": ChallengeJSON.int(week),
                "monday": .string(challenge.monday(ofWeek: week).iso),
                "photo": try ChallengeJSON.photo(read.stored(data.photos[week]), in: challenge),
                "weighIn": try ChallengeJSON.weighIn(read.stored(data.weighIns[week]), in: challenge),
            ]),
            "streaks": .array(data.streaks(today: today).map(ChallengeJSON.streak)),
            "score": today >= challenge.startDate ? ChallengeJSON.score(data.score(week: week, today: today)) : .null,
        ])
    }

    /// 201 with the home summary of the new challenge.
    @Sendable func start(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context, status: .created) {
            let body = try await APIInput.decode(ChallengeBody.self, from: request, context: context)
            let stored = try await service.start(body, userId: context.userId)
            // Read after the write, not from the cache: the request's data version is from before it.
            let profile = try await service.context(userId: context.userId).profile
            return try homeJSON(ChallengeSnapshot(profile: profile, current: stored, read: try await service.read(stored.value, userId: context.userId)))
        }
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let body = try await APIInput.decode(ChallengeBody.self, from: request, context: context)
            return try ChallengeJSON.row(try await service.update(body, userId: context.userId))
        }
    }

    /// 204: the challenge and all its rows are deleted (tombstones that sync hands out).
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context, status: .noContent) {
            _ = try await service.deleteCurrent(userId: context.userId)
            return .null
        }
    }

    // MARK: - A day

    /// The user's snapshot (`ChallengeService.snapshot`, Home's kept read: its rows are the live rows with their
    /// versions) with "today"; 404 without a challenge.
    func snapshot(_ context: AuthenticatedContext) async throws -> (StoredChallengeRow<Challenge>, ChallengeRead, ChallengeService.Context) {
        let snapshot = try await service.snapshot(userId: context.userId, dataVersion: context.userDataVersion)
        guard let stored = snapshot.current, let read = snapshot.read else { throw ChallengeService.noChallenge }
        return (stored, read, snapshot.context(now: services.now()))
    }

    /// The Log screen's day: each kind's state and row, yesterday's nutrition (003: shown ghosted) and the templates.
    /// From the snapshot, as Home.
    @Sendable func day(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let date = try Self.date(context)
            let (stored, read, ctx) = try await snapshot(context)
            let challenge = stored.value, data = read.data
            try ChallengeService.check(day: date, of: challenge, today: ctx.today)
            func rows(_ date: LocalDate) -> ChallengeJSON.DayRows {
                ChallengeJSON.DayRows(
                    nutrition: read.stored(data.nutrition[date]), workout: read.stored(data.workouts[date]), habits: read.stored(data.habits[date]))
            }
            guard case .object(var members) = try ChallengeJSON.day(date, data: data, stored: rows(date)) else { return .null }
            let yesterday = date.adding(days: -1)
            if challenge.contains(yesterday), case .object(let previous) = try ChallengeJSON.day(yesterday, data: data, stored: rows(yesterday)),
               case .object(let nutrition)? = previous["nutrition"] {
                members["yesterdayNutrition"] = nutrition["totals"] ?? .null
            } else {
                members["yesterdayNutrition"] = .null
            }
            let settings = data.settings ?? ChallengeSettings(challengeId: challenge.id, updatedAt: services.now())
            members["workoutTemplates"] = try SyncRules.rowData(ChallengeWorkoutType.allCases.map(settings.template))
            return .object(members)
        }
    }

    @Sendable func nutrition(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let body = try await APIInput.decode(ChallengeNutritionBody.self, from: request, context: context)
            return try ChallengeJSON.row(try await service.saveNutrition(body, date: try Self.date(context), userId: context.userId))
        }
    }

    @Sendable func workout(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let body = try await APIInput.decode(ChallengeWorkoutBody.self, from: request, context: context)
            return try ChallengeJSON.row(try await service.saveWorkout(body, date: try Self.date(context), userId: context.userId))
        }
    }

    @Sendable func habits(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let body = try await APIInput.decode(ChallengeHabitsBody.self, from: request, context: context)
            return try ChallengeJSON.row(try await service.saveHabits(body, date: try Self.date(context), userId: context.userId))
        }
    }

    @Sendable func deleteDayLog(_ request: Request, context: AuthenticatedContext, kind: String) async throws -> Response {
        try await answer(request, context, status: .noContent) {
            try await service.deleteDayLog(kind: kind, date: try Self.date(context), userId: context.userId)
            return .null
        }
    }

    // MARK: - A week

    /// The Weekly Check-In: the week's photo and weigh-in (each with `late`), its score and macro average.
    @Sendable func week(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let week = try Self.week(context)
            let (stored, read, ctx) = try await snapshot(context)
            let challenge = stored.value, data = read.data, today = ctx.today
            try ChallengeService.check(week: week, of: challenge, today: today)
            return .object([
                "week": ChallengeJSON.int(week),
                "monday": .string(challenge.monday(ofWeek: week).iso),
                "photo": try ChallengeJSON.photo(read.stored(data.photos[week]), in: challenge),
                "weighIn": try ChallengeJSON.weighIn(read.stored(data.weighIns[week]), in: challenge),
                "score": ChallengeJSON.score(data.score(week: week, today: today)),
                "macroAverage": ChallengeJSON.macroAverage(data.macroAverage(week: week, today: today)),
            ])
        }
    }

    @Sendable func photo(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let body = try await APIInput.decode(ChallengePhotoBody.self, from: request, context: context)
            let saved = try await service.savePhoto(body, week: try Self.week(context), userId: context.userId)
            return try ChallengeJSON.photo(saved, in: try await service.current(userId: context.userId).value)
        }
    }

    /// 201 with the weigh-in; a week that has one is 409 `already_logged` with `existing` (003: "Already logged this
    /// week", then edit it with `PUT`).
    @Sendable func newWeighIn(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context, status: .created) {
            let body = try await APIInput.decode(ChallengeWeighInBody.self, from: request, context: context)
            let saved = try await service.saveWeighIn(body, week: try Self.week(context), isNew: true, userId: context.userId)
            return try ChallengeJSON.weighIn(saved, in: try await service.current(userId: context.userId).value)
        }
    }

    @Sendable func editWeighIn(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let body = try await APIInput.decode(ChallengeWeighInBody.self, from: request, context: context)
            let saved = try await service.saveWeighIn(body, week: try Self.week(context), isNew: false, userId: context.userId)
            return try ChallengeJSON.weighIn(saved, in: try await service.current(userId: context.userId).value)
        }
    }

    // MARK: - Progress

    /// Progress (Charts | Photos | Insights): every begun week's score, weight and macro average; the goal pace line
    /// (flat in MATADOR maintenance blocks for the Lose plan); current vs expected pace; streaks; the photos; insights.
    @Sendable func progress(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let (stored, read, ctx) = try await snapshot(context)
            let challenge = stored.value, today = ctx.today, data = read.data
            let line = data.goalPace(matador: ctx.matador)
            let begun = today >= challenge.startDate ? Array(1...challenge.currentWeek(today: today)) : []
            let photos = data.photos.keys.sorted().compactMap { read.stored(data.photos[$0]) }
            return .object([
                "challenge": try ChallengeJSON.row(stored),
                "today": .string(today.iso),
                "startKg": ChallengeJSON.number(data.startKg),
                "paceLine": .array((line?.weeklyPoints ?? []).map {
                    .object(["date": .string($0.date.iso), "kg": ChallengeJSON.number($0.kg)])
                }),
                "pacePlan": .string(ctx.matador == nil ? "linear" : "matador"),
                "weeks": .array(begun.map { week in
                    let weight = data.weekWeight(week)
                    return .object([
                        "week": ChallengeJSON.int(week),
                        "score": ChallengeJSON.score(data.score(week: week, today: today)),
                        "weightKg": ChallengeJSON.number(weight?.kg),
                        "weightFromWeighIn": weight.map { .bool($0.fromWeighIn) } ?? .null,
                        "macroAverage": ChallengeJSON.macroAverage(data.macroAverage(week: week, today: today)),
                    ])
                }),
                "pace": ChallengeJSON.pace(data.pace(today: today, matador: ctx.matador)),
                "streaks": .array(data.streaks(today: today).map(ChallengeJSON.streak)),
                "photos": .array(try photos.map { try ChallengeJSON.photo($0, in: challenge) }),
                "insights": .array(ChallengeInsights.of(data, today: today, matador: ctx.matador).map(ChallengeJSON.insight)),
            ])
        }
    }

    // MARK: - Settings

    @Sendable func settings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let (settings, version) = try await service.settings(userId: context.userId)
            return try ChallengeJSON.settings(settings, version: version)
        }
    }

    @Sendable func saveSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context) {
            let body = try await APIInput.decode(ChallengeSettingsBody.self, from: request, context: context)
            let saved = try await service.saveSettings(body, userId: context.userId)
            return try ChallengeJSON.settings(saved.value, version: saved.version)
        }
    }

    // MARK: - Export

    /// `?format=json` (default): the challenge and every row of it; `csv`: one line per day (`table=days`, default) or
    /// per week (`table=weeks`) (`ChallengeExport`), as a download.
    @Sendable func export(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let format = request.uri.queryParameters.get("format") ?? "json"
        let table = ChallengeExport.Table(rawValue: request.uri.queryParameters.get("table") ?? "days")
        guard format == "json" || format == "csv", let table else {
            throw APIError.badRequest(Strings.current("challenge.invalidValue"), fields: ["format": Strings.current("challenge.invalidValue")])
        }
        let stored = try await service.current(userId: context.userId)
        let data = try await service.data(stored.value, userId: context.userId)
        let today = try await service.context(userId: context.userId).today
        let name = "w-diet-challenge-" + stored.value.startDate.iso // catalog-exempt: a file name
        if format == "csv" {
            let text = ChallengeExport.csv(data, today: today, table: table)
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                                   .contentDisposition: "attachment; filename=\"\(name)-\(table.rawValue).csv\""],
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        let json = try ChallengeExport.json(data)
        let bytes = try APICoding.encoder.encode(ChallengeResponse(json: ChallengeJSON.lowercasedIds(json)))
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8",
                                               .contentDisposition: "attachment; filename=\"\(name).json\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: - Helpers

    static func date(_ context: AuthenticatedContext) throws -> LocalDate {
        guard let text = context.parameters.get("date"), let date = LocalDate(iso: text) else {
            throw APIError.badRequest(Strings.current("api.date"), fields: ["date": Strings.current("api.date")])
        }
        return date
    }

    static func week(_ context: AuthenticatedContext) throws -> Int {
        guard let text = context.parameters.get("week"), let week = Int(text), Challenge.weeksRange.contains(week) else {
            let message = Strings.current("challenge.weekRange", ["max": String(Challenge.weeksRange.upperBound)])
            throw APIError.badRequest(message, fields: ["week": message])
        }
        return week
    }

    /// Runs a handler and answers its JSON; the Challenge's own errors become the API's: a lost edit 409
    /// `changed_elsewhere` with `server`, a second weigh-in 409 `already_logged` with `existing`.
    private func answer(_ request: Request, _ context: AuthenticatedContext, status: HTTPResponse.Status = .ok,
                        _ body: () async throws -> SyncJSON) async throws -> Response {
        do {
            let json = try await body()
            if status == .noContent { return Response(status: .noContent) }
            return Self.json(json, status: status)
        } catch let conflict as ChallengeConflict {
            var error: [String: SyncJSON] = ["code": .string("changed_elsewhere"), "message": .string(conflict.message)]
            if let server = conflict.server, let data = server.data {
                var members: [String: SyncJSON] = [:]
                if case .object(let values) = ChallengeJSON.lowercasedIds(data) { members = values }
                members["version"] = .number(Double(server.version))
                if let deleted = server.deletedAt { members["deletedAt"] = .string(SyncCoding.instantText(deleted)) }
                error["server"] = .object(members)
            }
            return Self.json(.object(["error": .object(error)]), status: .conflict)
        } catch let taken as ChallengeAlreadyLogged {
            return Self.json(.object(["error": .object([
                "code": .string("already_logged"), "message": .string(Strings.current("challenge.alreadyLoggedWeek")),
                "existing": taken.existing,
            ])]), status: .conflict)
        }
    }

    static func json(_ json: SyncJSON, status: HTTPResponse.Status) -> Response {
        let bytes = (try? APICoding.encoder.encode(ChallengeResponse(json: json))) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
