import Foundation
import Hummingbird
import WDietCore
import WDietLabelScan

/// `POST /api/v1/labels/read` (issue 19): a photo of a nutrition label in, the fields read from it out.
///
/// The body is the photo's bytes (`Content-Type` image/jpeg|png|webp|heic|heif, or application/octet-stream: the
/// bytes decide), `?crop=X,Y,W,H` a rectangle of the photo as shown upright, in its pixels. The photo is read in
/// memory and dropped with the request; nothing of it is stored or logged. Answers:
/// - 200 `LabelReadingJSON`; a photo without a nutrition panel is a reading too (`panelFound: false`).
/// - 400 no body or a malformed crop; 413 over the size limit; 415 not a photo; 422 a crop outside the photo.
/// - 503 `label_scan_busy` with `Retry-After` when the scan queue is full or a scan ran out of time,
///   503 `label_scan_unavailable` when this server has no Tesseract or vips tools.
struct LabelScanAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("labels/read", use: read)
    }

    static let cacheControl = "private, no-store"

    @Sendable func read(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let scan = services.labelScan
        do {
            let crop = try Self.crop(request.uri.queryParameters.get("crop"))
            if let type = request.headers[.contentType], !Self.acceptsContentType(type) {
                throw LabelScanService.Refusal.notAnImage
            }
            let buffer: ByteBuffer
            do {
                buffer = try await request.body.collect(upTo: scan.reader.maxBytes)
            } catch {
                throw LabelScanService.Refusal.tooLarge(megabytes: LabelScanService.megabytes(scan.reader.maxBytes))
            }
            let outcome = try await scan.read(image: Data(buffer: buffer), crop: crop)
            var response = try LabelReadingJSON(outcome).response(from: request, context: context)
            response.headers[.cacheControl] = Self.cacheControl
            return response
        } catch let refusal as LabelScanService.Refusal {
            if case .unavailable(let reason) = refusal {
                context.logger.warning("Label scanning is unavailable", metadata: ["reason": "\(reason)"])
            }
            var error = APIError(refusal)
            error.headers[.cacheControl] = Self.cacheControl
            throw error
        }
    }

    /// Types a photo may come as; no type, or octet-stream, leaves it to the bytes.
    static func acceptsContentType(_ value: String) -> Bool {
        let type = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type.isEmpty || type == "application/octet-stream" || MediaFormat.imageTypes.contains(type)
    }

    /// `X,Y,W,H` in whole pixels (W and H above zero), or nil without the parameter.
    static func crop(_ text: String?) throws -> LabelCrop? {
        guard let text else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
              x >= 0, y >= 0, width > 0, height > 0, x <= 100_000, y <= 100_000, width <= 100_000, height <= 100_000
        else {
            let message = Strings.current("labelScan.cropInvalid")
            throw APIError.badRequest(message, fields: ["crop": message])
        }
        return LabelCrop(x: x, y: y, width: width, height: height)
    }
}

extension APIError {
    /// What each refused scan answers. Every one says what to do next; the web page offers "Try manual entry".
    init(_ refusal: LabelScanService.Refusal) {
        let strings = Strings.current
        switch refusal {
        case .empty:
            self.init(.badRequest, code: "bad_request", message: strings("labelScan.empty"))
        case .tooLarge(let megabytes):
            self.init(.contentTooLarge, code: "too_large", message: strings("labelScan.tooLarge", ["megabytes": "\(megabytes)"]))
        case .tooManyPixels:
            self.init(.contentTooLarge, code: "too_many_pixels", message: strings("labelScan.tooManyPixels"))
        case .notAnImage:
            self.init(.unsupportedMediaType, code: "not_an_image", message: strings("labelScan.notAnImage"))
        case .badCrop:
            let message = strings("labelScan.cropOutside")
            self.init(.unprocessableContent, code: "invalid", message: message, fields: ["crop": message])
        case .unavailable:
            self.init(.serviceUnavailable, code: "label_scan_unavailable", message: strings("labelScan.unavailable"))
        case .busy(let seconds):
            self.init(.serviceUnavailable, code: "label_scan_busy", message: strings("labelScan.busy"), headers: [.retryAfter: "\(seconds)"])
        case .timedOut:
            self.init(.serviceUnavailable, code: "label_scan_busy", message: strings("labelScan.timedOut"), headers: [.retryAfter: "5"])
        }
    }
}
