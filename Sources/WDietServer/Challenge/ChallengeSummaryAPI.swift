import Foundation
import Hummingbird
import NIOCore
import WDietCore
import WDietStore

extension ChallengeService {
    /// The current challenge's report (Progress, the summary) as of the user's today, from the user's snapshot
    /// (`snapshot`; `dataVersion` is the request's).
    func report(userId: UUID, dataVersion: Int64?) async throws -> ChallengeReport {
        try Self.report(try await snapshot(userId: userId, dataVersion: dataVersion), now: services.now())
    }

    /// The report of a snapshot's challenge; 404 without one.
    static func report(_ snapshot: ChallengeSnapshot, now: Date) throws -> ChallengeReport {
        guard let data = snapshot.read?.data else { throw noChallenge }
        let context = snapshot.context(now: now)
        return ChallengeReport(data: data, today: context.today, matador: context.matador)
    }

    /// The summary as a PDF (two A4 pages) or the share image as a PNG; `ChallengeSummaryRenderer.Failure.toolMissing`
    /// without `rsvg-convert`.
    func summary(userId: UUID, dataVersion: Int64?, format: ChallengeSummaryRenderer.Format) async throws -> Data {
        let report = try await report(userId: userId, dataVersion: dataVersion)
        var summary = ChallengeSummary(report: report)
        if format == .pdf {
            // The display JPEG (at most 1,600 px) scaled to the printed size; a photo whose media is gone is left as
            // its frame.
            var first: Data?, latest: Data?
            if let photo = report.firstPhoto {
                first = try await services.media.mediaContent(id: photo.mediaId, userId: userId, variant: .display)
            }
            if let photo = report.latestPhoto {
                latest = try await services.media.mediaContent(id: photo.mediaId, userId: userId, variant: .display)
            }
            async let scaledFirst = ChallengeSummaryRenderer.printSize(first)
            async let scaledLatest = ChallengeSummaryRenderer.printSize(latest)
            (summary.firstPhoto, summary.latestPhoto) = (await scaledFirst, await scaledLatest)
        }
        let pages = format == .pdf ? [summary.firstPage, summary.secondPage] : [summary.shareImage]
        return try await ChallengeSummaryRenderer.render(pages, as: format)
    }

    /// The summary as a download: `w-diet-challenge-2026-09-07.pdf` (the start date names it). 503
    /// `summary_tool_missing` when the machine lacks `rsvg-convert`.
    func summaryResponse(userId: UUID, dataVersion: Int64?, format: ChallengeSummaryRenderer.Format) async throws -> Response {
        let start = try await current(userId: userId).value.startDate
        let data: Data
        do {
            data = try await summary(userId: userId, dataVersion: dataVersion, format: format)
        } catch let failure as ChallengeSummaryRenderer.Failure {
            switch failure {
            case .toolMissing:
                throw APIError(.serviceUnavailable, code: "summary_tool_missing", message: Strings.current("challengeProgress.summaryToolMissing"))
            case .failed:
                throw APIError(.serviceUnavailable, code: "summary_failed", message: Strings.current("challengeProgress.summaryFailed"))
            }
        }
        let name = "w-diet-challenge-\(start.iso).\(format.rawValue)"
        return Response(
            status: .ok,
            headers: [
                .contentType: format == .pdf ? "application/pdf" : "image/png", .cacheControl: "private, no-store",
                .contentDisposition: "attachment; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func summaryFormat(_ text: String?) throws -> ChallengeSummaryRenderer.Format {
        guard let format = ChallengeSummaryRenderer.Format(rawValue: text ?? "pdf") else {
            let message = Strings.current("challengeProgress.summaryFormat")
            throw APIError.badRequest(message, fields: ["format": message])
        }
        return format
    }
}

extension ChallengeAPI {
    /// `GET /challenge/summary?format=pdf|png`: the summary to keep (PDF) or the share image (PNG).
    @Sendable func summary(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let format = try ChallengeService.summaryFormat(request.uri.queryParameters.get("format"))
        return try await service.summaryResponse(userId: context.userId, dataVersion: context.userDataVersion, format: format)
    }
}
