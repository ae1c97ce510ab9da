import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `POST /api/v1/sync/push` and `GET /api/v1/sync/pull`: offline-first sync for the signed-in user (docs/sync.md).
/// The rules live in the store (`SyncStore`, `SyncRules`); this controller reads the request and maps a refusal
/// to its status.
struct SyncAPI: Sendable {
    let services: AppServices

    /// A push of 1,000 meals is about 300 KB; generic rows may carry up to 64 KB each.
    static let maxPushBytes = 8 * 1024 * 1024

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("sync/push", use: push)
        group.get("sync/pull", use: pull)
    }

    @Sendable func push(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxPushBytes)
        } catch {
            throw APIError(.contentTooLarge, code: "batch_too_large", message: Strings.current("sync.pushTooLarge"))
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest(APIInput.Message.emptyBody) }
        let body: SyncPushRequest
        do {
            body = try APICoding.decoder.decode(SyncPushRequest.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIInput.badRequest(for: error)
        }
        // A control character in a change refuses that change by name (422 `invalid_change`, `changes.N`), so the
        // client parks it and pushes the rest; nothing is applied (issue 21).
        if let finding = ControlCharacterInput.finding(inJSON: buffer) {
            throw Self.refusal(finding, in: body)
        }
        // A journal entry or challenge photo naming media the user has not uploaded is refused by name as well
        // (422 `invalid_change`: the client parks it); nothing is applied (docs/media.md, "References").
        if let refusal = try await mediaRefusal(body.changes, userId: context.userId) {
            return try Self.response(for: refusal)
        }
        // A profile change counts against the profile editor's limit (10 an hour, 001 §12.7) as a PUT does: sync is
        // no way around it. Counted only when it changes the stored profile, so a replay or the first profile is free.
        let now = services.now()
        let profileSaving = ProfileSaving(services: services)
        var counted = ProfileSaving.Count.none
        if let profile = body.changes.first(where: { $0.entity == .profile && $0.op == .upsert })?.profile,
           let existing = try await services.profiles.profile(userId: context.userId) {
            do {
                counted = try await profileSaving.count(profile, over: existing.profile, userId: context.userId, now: now)
            } catch let limit as ProfileSaving.LimitReached {
                return try ProfileRateLimitJSON(retryAt: limit.retryAt, now: now).response()
            }
        }
        let results: [SyncChangeResult]
        do {
            results = try await services.sync.push(body.changes, userId: context.userId)
        } catch {
            // A refused push changed nothing: give the count back.
            await profileSaving.giveBack(counted)
            guard let rejection = error as? SyncRejection else { throw error }
            return try Self.response(for: rejection)
        }
        // Meals and weights the push created are logged moments like the API's and the web form's.
        let creates = body.changes.contains { ($0.entity == .meal || $0.entity == .weight) && $0.op == .upsert && $0.baseVersion == nil }
        if creates, let profile = try await services.profiles.profile(userId: context.userId)?.profile {
            MealLogging(services: services).recordCreated(
                by: body.changes, results: results, userId: context.userId, timeZone: profile.timeZone, logger: context.logger)
            WeightLogging(services: services).recordCreated(
                by: body.changes, results: results, userId: context.userId, unit: profile.weightUnit, logger: context.logger)
        }
        let data = try APICoding.encoder.encode(SyncPushResponse(results: results.map(Self.localized)))
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    @Sendable func pull(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let cursor = try Self.cursor(request.uri.queryParameters.get("cursor"))
        let limit = try Self.limit(request.uri.queryParameters.get("limit"))
        let page: SyncPullResponse
        do {
            page = try await services.sync.pull(userId: context.userId, after: cursor, limit: limit)
        } catch let rejection as SyncRejection {
            return try Self.response(for: rejection)
        }
        let data = try APICoding.encoder.encode(page)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A result's message in the request's language: the store made it on its own queue, in English, and a
    /// replayed result answers the words it was first stored with.
    static func localized(_ result: SyncChangeResult) -> SyncChangeResult {
        var result = result
        result.message = result.message.map(CatalogText.localized)
        return result
    }

    /// The first change that adds media ids the user has no items for (ids the stored journal entry or challenge
    /// photo already names are not asked again), as the push's refusal; nil when every reference holds.
    func mediaRefusal(_ changes: [SyncChange], userId: UUID) async throws -> SyncRejection? {
        let references = MediaReferences(media: services.media)
        for (index, change) in changes.enumerated() {
            guard let ids = MediaReferences.referenced(by: change), !ids.isEmpty else { continue }
            var known: [UUID] = []
            if change.collection == JournalEntry.collection, let id = change.id,
               let stored = try await services.journal.entry(userId: userId, id: id) {
                known = stored.entry.mediaIds
            } else if change.collection == ChallengePhoto.collection, let id = change.id,
                      let stored = try await ChallengeStore(sync: services.sync).row(ChallengePhoto.self, userId: userId, id: id) {
                known = [stored.value.mediaId]
            }
            let missing = try await references.missing(ids.filter { !known.contains($0) }, userId: userId)
            if !missing.isEmpty {
                return .invalidChange(index: index, key: change.idempotencyKey, message: MediaReferences.message(missing))
            }
        }
        return nil
    }

    /// A control character in a push: the change it is in, named as a store refusal names it.
    static func refusal(_ finding: ControlCharacters.Finding, in body: SyncPushRequest) -> APIError {
        let parts = finding.components
        guard parts.count >= 2, parts[0] == "changes", let index = Int(parts[1]), body.changes.indices.contains(index) else {
            return ControlCharacterInput.refusal(finding)
        }
        let member = parts.dropFirst(2).joined(separator: ".")
        let detail = ControlCharacterInput.message(field: member.isEmpty ? "change" : member, finding.scalar)
        let key = String(body.changes[index].idempotencyKey.unicodeScalars.map { ControlCharacters.isDisallowed($0) ? "?" : Character($0) })
        let rejection = SyncRejection.invalidChange(index: index, key: key, message: detail)
        return APIError(.unprocessableContent, code: "invalid_change", message: rejection.message, fields: ["changes.\(index)": detail])
    }

    static func invalidCursor(_ message: String, member: String = "cursor") -> APIError {
        APIError(.badRequest, code: "invalid_cursor", message: message, fields: [member: message])
    }

    /// A whole number ≥ 0: the `nextCursor` of the previous pull, or 0.
    static func cursor(_ text: String?) throws -> Int64 {
        guard let text else { throw invalidCursor(Strings.current("sync.cursorMissing")) }
        guard let cursor = Int64(text), cursor >= 0, text.allSatisfy(\.isASCII) else {
            throw invalidCursor(Strings.current("sync.cursorInvalid"))
        }
        return cursor
    }

    static func limit(_ text: String?) throws -> Int {
        guard let text else { return SyncLimits.defaultPullLimit }
        guard let limit = Int(text), (1...SyncLimits.maxPullLimit).contains(limit) else {
            throw invalidCursor(Strings.current("sync.limitInvalid", ["max": String(SyncLimits.maxPullLimit)]), member: "limit")
        }
        return limit
    }

    /// A refused push or pull, with the status docs/sync.md gives it.
    static func response(for rejection: SyncRejection) throws -> Response {
        switch rejection {
        case .tooManyChanges:
            throw APIError(.contentTooLarge, code: "batch_too_large", message: rejection.message, fields: ["changes": rejection.message])
        case .invalidChange(let index, let key, let reason):
            // A store's own refusal ("Tips are pulled only") was made outside the request, in English.
            let detail = CatalogText.localized(reason)
            let localized = SyncRejection.invalidChange(index: index, key: key, message: detail)
            throw APIError(.unprocessableContent, code: "invalid_change", message: localized.message, fields: ["changes.\(index)": detail])
        case .idInUse(let index, _):
            throw APIError(.conflict, code: "id_in_use", message: rejection.message, fields: ["changes.\(index)": Strings.current("sync.idInUse")])
        case .profileRequired(let index, _):
            throw APIError(.conflict, code: "profile_missing", message: rejection.message, fields: ["changes.\(index)": rejection.message])
        case .cursorAhead:
            throw invalidCursor(rejection.message)
        case .profileConflict(let conflict):
            let body = SyncProfileConflictJSON(error: .init(message: rejection.message, conflict: conflict))
            let data = try APICoding.encoder.encode(body)
            return Response(
                status: .conflict, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}

/// 409 for a profile change from a stale base: the API's error shape with the three copies in `conflict`.
struct SyncProfileConflictJSON: Encodable {
    struct Detail: Encodable {
        var code = "profile_conflict"
        var message: String
        var conflict: SyncProfileConflict
    }
    var error: Detail
}
