import Foundation
import WDietCore
import WDietStorage
import WDietStore

extension ExportDocument {
    /// A JSON export read for an import into `userId`: 400 when it is not JSON, 422 when it is another format or
    /// version, or when members are missing, mistyped or refused by the stores' rules (named by path). The document
    /// and its rules are WDietStorage's; the statuses and messages are the API's.
    static func userData(fromJSON bytes: Data, into userId: UUID) throws -> (document: ExportDocument, data: UserDataExport) {
        let document: ExportDocument
        do throws(ExportDocument.ReadError) {
            document = try ExportDocument.read(json: bytes)
        } catch {
            switch error {
            case .notJSON:
                throw APIError.badRequest(APIInput.Message.notJSON)
            case .otherFormat:
                throw APIError.invalid(Strings.current("export.notExport"), fields: ["format": Strings.current("export.expectedFormat", ["format": formatName])])
            case .unsupportedVersion(let found):
                let version = found.map(String.init) ?? Strings.current("export.versionMissing")
                throw APIError.invalid(
                    Strings.current("export.versionUnsupported", ["version": version]),
                    fields: ["formatVersion": Strings.current("export.expectedVersion", ["version": String(currentVersion)])]
                )
            case .malformed(let decodingError):
                // The JSON is well formed (the header read it) but a member is missing or wrong: a 422 naming it.
                throw APIError.invalid(Strings.current("export.malformed"), fields: APIInput.badRequest(for: decodingError).fields)
            }
        }
        switch document.importValue(into: userId) {
        case .success(let data):
            return (document, data)
        case .failure(let errors):
            throw APIError.invalid(Strings.current("export.cannotImport", count: errors.count), fields: errors.fields)
        }
    }
}
