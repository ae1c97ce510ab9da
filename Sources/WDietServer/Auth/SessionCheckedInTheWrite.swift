import Foundation
import Hummingbird
import WDietCore
import WDietStore

extension SessionAuthMiddleware {
    /// A save in one round trip on PostgreSQL: the request runs on what the last lookup of its token in this process
    /// read (`AccountService.deferredCheck`), and the save's own statement checks that the session is still so
    /// (`DeferredSessionCheck`; before, a save read the session and then wrote: two round trips). Then:
    ///
    /// - the statement found it so: the answer goes out;
    /// - it found it otherwise (logged out or the account deleted by any server, expired, another language, theme or
    ///   profile): it wrote nothing, and the request runs again as any other does, on the session read from the store
    ///   (401 when it signs nobody in);
    /// - nothing checked it (the request ended before its write: a field error, a retried id answered from the
    ///   store): the session is read from the store; the answer stands when the store agrees with what the request
    ///   ran on, else the request runs again on what was read.
    ///
    /// So nothing is answered or written on a session that the store does not hold at that moment, as with the lookup
    /// first. To run a request again its body is read here first, and only when `Content-Length` puts it within the
    /// API's limit (anything else takes the lookup first).
    func answerCheckingInTheWrite(
        _ request: Request, context: Context, token: String, check: DeferredSessionCheck,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        guard let length = request.headers[.contentLength].flatMap({ Int($0) }), length <= APIInput.maxBodyBytes else {
            let signedIn = try await accounts.signedInRequest(presenting: token, as: .api)
            return try await next(request, try Self.signIn(context, as: signedIn, presented: (token, .api), request: request))
        }
        _ = try await request.collectBody(upTo: APIInput.maxBodyBytes)

        var assumed = context
        assumed.userId = check.userId
        // Unknown without a lookup: nil makes the dashboard's kept inputs read again (a save changes them anyway).
        assumed.userDataVersion = nil
        assumed.profileSeen = check.profileSeen
        assumed.accountLanguage = check.language
        assumed.accountAppearance = check.appearance
        let first: Result<Response, any Error>
        do {
            first = .success(try await DeferredSessionCheck.$current.withValue(check) { try await next(request, assumed) })
        } catch {
            first = .failure(error)
        }
        if check.state == .confirmed { return try first.get() }

        let signedIn = try await accounts.signedInRequest(presenting: token, as: .api)
        if check.state == .pending, let signedIn, signedIn.userId == check.userId, signedIn.profileSeen == check.profileSeen,
           signedIn.language == check.language, signedIn.appearance == check.appearance {
            return try first.get()
        }
        return try await next(request, try Self.signIn(context, as: signedIn, presented: (token, .api), request: request))
    }
}
