import Foundation
import Hummingbird
import WDietCore
import WDietStorage
import WDietStore

/// The user's own data (GDPR Art. 15, 17 and 20), for the signed-in user only:
///
/// - `GET /export?format=json|csv` → 200, a download: the JSON document (`ExportDocument`) or a zip of CSV files
///   (`ExportCSV`); `format` defaults to json; anything else is 400.
/// - `POST /import` (a JSON export, up to 32 MiB, or the export zip with its media, up to 1 GiB: `ImportMedia`; larger is 413; 20 attempts an hour per account and 10 imports per client address,
///   else 429 `too_many_imports` with Retry-After: `ImportLimit`) → 201 `{"imported": {...counts}, "newIds"}` into
///   the signed-in account, all or nothing; 409 `account_not_empty` when the account already has a profile, meals,
///   weights or dismissed tips (or another import into it runs); 422 for another format, an unknown `formatVersion`
///   or malformed members (by path); 503 `import_busy` with Retry-After when the line of imports is full
///   (`ImportLine`: one at a time, at a low priority).
/// - `DELETE /account` → 204: the account and every row of it are erased at once and every session ends. An account
///   with a password sends `{"password"}` (checked and throttled like a sign-in: 401, 429); one without (a guest,
///   an Apple/Google-only account) sends `{"confirm": "DELETE"}`.
struct UserDataAPI: Sendable {
    let services: AppServices
    let accounts: AccountService
    let configuration: ServerConfiguration
    /// One import at a time, at a low priority (`ImportLine`).
    let importLine = ImportLine.make()

    /// A year of heavy logging is a few MB of JSON; this leaves room for many years.
    static let maxImportBytes = 32 * 1024 * 1024

    func register(on api: RouterGroup<AppRequestContext>) {
        let user = api.group(context: AuthenticatedContext.self)
        user.get("export") { request, context in
            let format = request.uri.queryParameters.get("format") ?? "json"
            guard format == "json" || format == "csv" else {
                throw APIError.badRequest(Strings.current("export.formatInvalid"), fields: ["format": Strings.current("export.formatExpected")])
            }
            let data = try await services.userData.exportUserData(userId: context.userId)
            let now = services.now()
            // Photos and recordings listed by id; their bytes travel in the zip only (docs/media.md).
            let document = ExportDocument(data, exportedAt: now, media: try await services.media.allMedia(userId: context.userId))
            let day = LocalDate(now, in: data.profile?.profile.timeZone ?? .gmt)
            // The zip carries the photos and recordings too (docs/media.md), made in a private temporary file and
            // streamed from it (`ExportZipFile`): a gigabyte of photos is never held in memory.
            let body: ResponseBody = format == "json"
                ? .init(byteBuffer: ByteBuffer(bytes: try document.jsonData()))
                : try await ExportZipFile.write(document, media: services.media, userId: context.userId).body(context: context)
            let contentType = format == "json" ? "application/json; charset=utf-8" : "application/zip"
            return Response(
                status: .ok,
                headers: [
                    .contentType: contentType,
                    .contentDisposition: "attachment; filename=\"w-diet-export-\(day.iso).\(format == "json" ? "json" : "zip")\"",
                    .cacheControl: "no-store",
                ],
                body: body
            )
        }
        user.post("import") { request, context in
            // Counted before the body is read (429 too_many_imports); a refusal before any write gives it back.
            let limit = ImportLimit(store: services.loginThrottle, now: services.now)
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            let keys = try await limit.take(userId: context.userId, clientAddress: address)
            let result: (summary: UserDataImportSummary, media: Int, droppedReferences: Int)
            do {
                let userId = context.userId
                let logger = context.logger
                if ImportMedia.isZip(request) {
                    // The zip with its photos and recordings, on the disk until the import is done (ImportMedia).
                    let folder = try await ImportMedia.saveBody(request)
                    defer { try? FileManager.default.removeItem(at: folder) }
                    result = try await importLine.run { [services] in
                        let (zip, document, data) = try ImportMedia.read(zipIn: folder, userId: userId)
                        return try await ImportMedia.run(data, document: document, zip: zip, userId: userId, services: services, logger: logger)
                    }
                } else {
                    let body = try await Self.readBody(request)
                    // Parsed, checked and written in the line, on the import thread (the event loops stay free).
                    result = try await importLine.run { [services] in
                        let (document, data) = try Self.readImport(body, userId: userId)
                        return try await ImportMedia.run(data, document: document, zip: nil, userId: userId, services: services, logger: logger)
                    }
                }
            } catch let busy as WorkLine.Busy {
                await limit.giveBack(keys)
                throw APIError(
                    .serviceUnavailable, code: "import_busy", message: Strings.current("export.importBusy"),
                    headers: [.retryAfter: "\(busy.retryAfterSeconds)"])
            } catch StoreError.conflict(let message) {
                await limit.giveBack(keys)
                throw APIError(.conflict, code: "account_not_empty", message: CatalogText.localized(message))
            } catch let error as APIError {
                await limit.giveBack(keys)
                throw error
            } catch StoreError.invalid(let message) {
                await limit.giveBack(keys)
                throw StoreError.invalid(message)
            }
            return ImportResponse(result.summary, media: result.media, droppedMediaReferences: result.droppedReferences)
        }
        user.delete("account") { request, context in
            let body = try await APIInput.decode(DeleteAccountBody.self, from: request, context: context)
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            try await accounts.deleteAccount(
                userId: context.userId, password: body.password, confirm: body.confirm, clientAddress: address
            )
            var response = Response(status: .noContent, headers: [.cacheControl: "no-store"])
            // Signed in by the web cookie: the browser forgets it too.
            if SessionToken.presented(in: request)?.kind == .web {
                response.setCookie(WebSession.clearedSessionCookie(secure: configuration.secureCookies))
            }
            return response
        }
    }

    /// The body, up to `maxImportBytes` (else 413), not empty (else 400).
    static func readBody(_ request: Request) async throws -> ByteBuffer {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxImportBytes)
        } catch {
            throw APIError(.contentTooLarge, code: "too_large", message: Strings.current("export.importTooLarge"))
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest(APIInput.Message.emptyBody) }
        return buffer
    }

    /// The body as the store's value, or the 4xx that says what is wrong with it.
    static func readImport(_ buffer: ByteBuffer, userId: UUID) throws -> (document: ExportDocument, data: UserDataExport) {
        // A control character anywhere in the export: 422 naming the member (`meals.12.name`), nothing imported.
        try ControlCharacterInput.check(json: buffer)
        return try ExportDocument.userData(fromJSON: Data(buffer: buffer), into: userId)
    }
}

/// The body of `DELETE /account`: the password for an account that has one, `"confirm": "DELETE"` otherwise.
struct DeleteAccountBody: Decodable, Sendable {
    var password: String?
    var confirm: String?
}

/// `201 {"imported": {"profile", "meals", "weights", "analyticsEvents", "dismissedTips", "rows"}, "newIds"}`.
struct ImportResponse: ResponseGenerator, Sendable {
    struct Counts: Encodable {
        var profile: Int
        var meals: Int
        var weights: Int
        var analyticsEvents: Int
        var dismissedTips: Int
        var rows: Int
        /// Photos and recordings restored from a zip (0 for a JSON import).
        var media: Int
    }

    struct Body: Encodable {
        var imported: Counts
        /// Rows that got a new id because theirs was taken (typically by the account the export came from).
        var newIds: Int
        /// Media ids that rows named but neither the import nor the account had: taken out of those rows (a
        /// journal entry keeps its words; a challenge photo is left out).
        var droppedMediaReferences: Int
    }

    var body: Body

    init(_ summary: UserDataImportSummary, media: Int = 0, droppedMediaReferences: Int = 0) {
        body = Body(
            imported: Counts(
                profile: summary.profiles, meals: summary.meals, weights: summary.weights,
                analyticsEvents: summary.analyticsEvents, dismissedTips: summary.dismissedTips, rows: summary.rows,
                media: media
            ),
            newIds: summary.newIds, droppedMediaReferences: droppedMediaReferences
        )
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .created,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try APICoding.encoder.encode(body)))
        )
    }
}
