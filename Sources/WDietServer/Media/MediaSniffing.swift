import Foundation
import WDietStore

/// The upload types the media API takes, told by their first bytes (a `Content-Type` is what the client says, not
/// what it sent). `Content-Type` names the kind; the bytes must be of that kind and of a format w-diet reads.
enum MediaFormat: String, Sendable, Equatable, CaseIterable {
    case jpeg, png, webp, heic
    case mp4Audio, aac, mpeg, webm, ogg, wav

    var kind: MediaKind {
        switch self {
        case .jpeg, .png, .webp, .heic: .photo
        case .mp4Audio, .aac, .mpeg, .webm, .ogg, .wav: .audio
        }
    }

    /// The type a recording of this format is served as.
    var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .mp4Audio: "audio/mp4"
        case .aac: "audio/aac"
        case .mpeg: "audio/mpeg"
        case .webm: "audio/webm"
        case .ogg: "audio/ogg"
        case .wav: "audio/wav"
        }
    }

    /// The file name extension in the export zip.
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heic: "heic"
        case .mp4Audio: "m4a"
        case .aac: "aac"
        case .mpeg: "mp3"
        case .webm: "webm"
        case .ogg: "ogg"
        case .wav: "wav"
        }
    }

    /// The kind a `Content-Type` header announces (parameters such as `;codecs=opus` ignored, any case), or nil
    /// for a type the API does not take.
    static func announcedKind(_ contentType: String?) -> MediaKind? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        if imageTypes.contains(type) { return .photo }
        if audioTypes.contains(type) { return .audio }
        return nil
    }

    static let imageTypes: Set<String> = ["image/jpeg", "image/jpg", "image/png", "image/webp", "image/heic", "image/heif"]
    static let audioTypes: Set<String> = [
        "audio/mp4", "audio/m4a", "audio/x-m4a", "audio/aac", "audio/mpeg", "audio/mp3", "audio/webm", "audio/ogg",
        "audio/wav", "audio/wave", "audio/x-wav",
    ]

    /// HEIF brands of still images (HEVC-coded, and the generic image brands iPhones write as major brand).
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]

    /// The format of `data` by its first bytes, or nil when it is none of those w-diet takes.
    static func sniff(_ data: Data) -> MediaFormat? {
        let b = [UInt8](data.prefix(64))
        func ascii(_ range: Range<Int>) -> String? {
            guard b.count >= range.upperBound else { return nil }
            return String(bytes: b[range], encoding: .isoLatin1)
        }
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .jpeg }
        if b.count >= 8, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if ascii(0..<4) == "RIFF" {
            switch ascii(8..<12) {
            case "WEBP": return .webp
            case "WAVE": return .wav
            default: return nil
            }
        }
        if ascii(4..<8) == "ftyp", b.count >= 16 {
            // The box's size, then the major brand and the compatible brands.
            let size = min(Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]), b.count)
            var brands: [String] = []
            if let major = ascii(8..<12) { brands.append(major) }
            var offset = 16
            while offset + 4 <= size {
                if let brand = ascii(offset..<offset + 4) { brands.append(brand) }
                offset += 4
            }
            if brands.contains(where: heifBrands.contains) { return .heic }
            // Any other ISO media file: an MPEG-4 recording (M4A, mp42, isom…).
            return .mp4Audio
        }
        if b.count >= 4, b[0..<4].elementsEqual([0x1A, 0x45, 0xDF, 0xA3]) { return .webm }
        if ascii(0..<4) == "OggS" { return .ogg }
        if ascii(0..<3) == "ID3" { return .mpeg }
        if ascii(0..<4) == "ADIF" { return .aac }
        if b.count >= 2, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 {
            // Frame sync: layer bits 00 are ADTS (AAC); any other layer is an MPEG audio frame (MP3).
            return b[1] & 0x06 == 0 ? .aac : .mpeg
        }
        return nil
    }
}
