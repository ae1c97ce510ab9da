import Foundation
import Hummingbird
import NIOCore
import WDietCore
import WDietStore

extension ChallengeService {
    /// The current challenge's report (Progress, the summary) as of the user's today.
    func report(userId: UUID) async throws -> ChallengeReport {
        let stored = try await current(userId: userId)
        let context = try await context(userId: userId)
        let data = try await data(stored.value, userId: userId)
        return ChallengeReport(data: data, today: context.today, matador: context.matador)
    }

    /// The summary as a PDF (two A4 pages) or the share image as a PNG; `ChallengeSummaryRenderer.Failure.toolMissing`
    /// without `rsvg-convert`.
    func summary(userId: UUID, format: ChallengeSummaryRenderer.Format) async throws -> Data {
        let report = try await report(userId: userId)
        var summary = ChallengeSummary(report: report)
        if format == .pdf {
            // The display JPEG (at most 1,600 px): sharp on paper; a photo whose media is gone is left as its frame.
            if let first = report.firstPhoto {
                summary.firstPhoto = try await services.media.mediaContent(id: first.mediaId, userId: userId, variant: .display)
            }
            if let latest = report.latestPhoto {
                summary.latestPhoto = try await services.media.mediaContent(id: latest.mediaId, userId: userId, variant: .display)
            }
        }
        let pages = format == .pdf ? [summary.firstPage, summary.secondPage] : [summary.shareImage]
        return try await ChallengeSummaryRenderer.render(pages, as: format)
    }

    /// The summary as a download: `w-diet-challenge-2026-09-07.pdf` (the start date names it). 503
    /// `summary_tool_missing` when the machine lacks `rsvg-convert`.
    func summaryResponse(userId: UUID, format: ChallengeSummaryRenderer.Format) async throws -> Response {
        let start = try await current(userId: userId).value.startDate
        let data: Data
        do {
            data = try await summary(userId: userId, format: format)
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
        return try await service.summaryResponse(userId: context.userId, format: format)
    }
}
