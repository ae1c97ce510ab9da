import Foundation

/// The ids of the Challenge's one-per-day and one-per-week rows, derived from the challenge's id and the day or the
/// week (issue 20): two devices that were offline and each logged the same day's nutrition (or the same week's
/// photo) write the same row id, so sync merges them into one row ("a create of an existing id is an update",
/// docs/sync.md) instead of keeping two. The challenge's own id is random (`TimeOrderedUUID`), so the derived ids of
/// two users never meet (an id is one user's).
///
/// Each is a name-based version 5 UUID (RFC 9562 §5.5: SHA-1 of the namespace's 16 bytes and the name, version and
/// variant bits set) with the challenge's id as namespace and names such as `nutrition/2026-11-30`,
/// `photo/week/3`: any client can make them, in any language, with a standard library.
public enum ChallengeIds {
    public static func nutrition(challengeId: UUID, date: LocalDate) -> UUID { v5(challengeId, "nutrition/" + date.iso) }
    public static func workout(challengeId: UUID, date: LocalDate) -> UUID { v5(challengeId, "workout/" + date.iso) }
    public static func habits(challengeId: UUID, date: LocalDate) -> UUID { v5(challengeId, "habits/" + date.iso) }
    public static func photo(challengeId: UUID, week: Int) -> UUID { v5(challengeId, "photo/week/" + String(week)) }
    public static func weighIn(challengeId: UUID, week: Int) -> UUID { v5(challengeId, "weighin/week/" + String(week)) }
    /// The challenge's settings row (reminders, Smart Rules, app lock choice, workout templates): one per challenge.
    public static func settings(challengeId: UUID) -> UUID { v5(challengeId, "settings") }

    /// RFC 9562 version 5: SHA-1(namespace bytes ‖ UTF-8 name), first 16 bytes, version 5, variant 10.
    public static func v5(_ namespace: UUID, _ name: String) -> UUID {
        var input = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        input.append(contentsOf: Array(name.utf8))
        var bytes = Array(SHA1.digest(input).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// SHA-1 (RFC 3174), only for name-based UUIDs: WDietCore has no dependencies, and these ids need no secrecy.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        var data = message
        let bitLength = UInt64(message.count) * 8
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] = UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4]
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A827999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC
                default: f = b ^ c ^ d; k = 0xCA62C1D6
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = b << 30 | b >> 2; b = a; a = temp
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d; h[4] = h[4] &+ e
        }
        return h.flatMap { v in [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    }
}
