import Foundation
import Testing
import WDietCore
@testable import WDietServer

/// `FlatJSONObject` reads the common meal and weight bodies without `JSONDecoder`. It may decline any body (the
/// decoder then answers), but a body it reads must come out exactly as `JSONDecoder` reads it.
@Suite("Flat JSON bodies")
struct FlatJSONObjectTests {
    static func parse(_ json: String) -> FlatJSONObject? {
        Array(json.utf8).withUnsafeBytes { FlatJSONObject.parse($0) }
    }

    static func fast<T: FlatJSONDecodable>(_ type: T.Type, _ json: String) -> T? {
        parse(json).flatMap(T.init(flatJSON:))
    }

    static func decoded<T: Decodable>(_ type: T.Type, _ json: String) -> T? {
        try? APICoding.decoder.decode(T.self, from: Data(json.utf8))
    }

    /// Bodies the fast path must take: what the web app, the native clients and the benchmark send.
    static let plainMealBodies = [
        #"{"name":"Turkey sandwich","calories":420,"protein":28,"carbs":45,"fat":12,"fiber":5}"#,
        #"{"calories":95}"#,
        #"{}"#,
        #" { "name" : "Café crème 🍰" , "calories" : 1.5e2 , "protein" : null } "#,
        "{\n\t\"calories\": \"82,5\",\r\n\"fat\": \"\"\n}",
        #"{"foodId":"05062","grams":150}"#,
        #"{"foodId":"05062","portion":"1 cup (8 fl oz)","quantity":1.5}"#,
        #"{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","calories":100,"loggedAt":"2026-03-01T12:30:00Z"}"#,
        #"{"calories":100,"loggedAt":"2026-03-01T12:30:00.250Z","unknown":"kept out"}"#,
        #"{"calories":-0,"protein":0.1,"carbs":1E-2,"fat":12345678901234567890,"fiber":-3.25e+1}"#,
        #"{"id":null,"name":null}"#,
    ]

    /// Bodies the fast path must leave to `JSONDecoder` (its errors are the API's).
    static let declined = [
        "", "{", "not json", "[]", "null", "42", "\"text\"", "{\"calories\": {}}", "{\"calories\": [1]}",
        "{\"kg\": true}", "{\"loggedAt\": \"yesterday\"}", "{\"loggedAt\": 12}", "{\"id\": 7}", "{\"name\": 5, \"calories\": 100}",
        "{\"foodId\": 5062, \"grams\": 100}", "{\"portion\": 3}", "{\"calories\": 1e400}", "\u{FEFF}{}",
        #"{"name":"a \"quoted\" word","calories":100}"#, #"{"name":"tab\there"}"#, "{\"name\":\"line\nbreak\"}",
        #"{"calories":100,"calories":200}"#, #"{"calories":100} x"#, #"{"calories":100,}"#, #"{"calories":01}"#,
        #"{"calories":1.}"#, #"{"calories":.5}"#, #"{"calories":+1}"#, #"{"calories":1e}"#, #"{"calories":NaN}"#,
        #"{"calories":nul}"#, #"{calories:100}"#, #"{"calories" 100}"#, #"{"a":1 "b":2}"#,
    ]

    @Test("the common meal bodies are read without JSONDecoder, exactly as it reads them", arguments: plainMealBodies)
    func plainMeals(json: String) throws {
        let fast = try #require(Self.fast(MealBody.self, json), "declined: \(json)")
        let decoded = try #require(Self.decoded(MealBody.self, json))
        #expect(fast == decoded)
    }

    @Test("anything else is left to JSONDecoder", arguments: declined)
    func declinedBodies(json: String) {
        #expect(Self.fast(MealBody.self, json) == nil)
        // A weight ignores the meal's members, as JSONDecoder does; what it reads, it reads the same.
        if let weight = Self.fast(WeightBody.self, json) { #expect(weight == Self.decoded(WeightBody.self, json)) }
    }

    @Test("bytes that are not UTF-8 are left to JSONDecoder")
    func invalidUTF8() {
        let bytes: [UInt8] = Array(#"{"name":""#.utf8) + [0xC3, 0x28] + Array(#"","calories":100}"#.utf8)
        #expect(bytes.withUnsafeBytes { FlatJSONObject.parse($0) } == nil)
    }

    @Test("values as read: text, numbers to the nearest Double, null; members in order")
    func values() throws {
        let object = try #require(Self.parse(#"{"a":"x","b":-12.5e-1,"c":null,"d":0,"e":""}"#))
        #expect(object.members.map { $0.key } == ["a", "b", "c", "d", "e"])
        #expect(object["a"] == .string("x"))
        #expect(object["b"] == .number(-1.25))
        #expect(object["c"] == .null)
        #expect(object["d"] == .number(0))
        #expect(object["e"] == .string(""))
        #expect(object["f"] == nil)
        #expect(Self.parse(#"{"n":0.1}"#)?["n"] == .number(0.1))
        #expect(Self.parse(#"{"n":1.7976931348623157e308}"#)?["n"] == .number(.greatestFiniteMagnitude))
    }

    @Test("weights: the fast path agrees with JSONDecoder", arguments: [
        #"{"kg":82.5}"#, #"{"lb":"181,5"}"#, #"{"kg":80,"loggedAt":"2026-03-01T07:00:00Z","id":"3f2504e0-4f89-11d3-9a0c-0305e82c3301"}"#,
        #"{"kg":null}"#, #"{}"#,
    ])
    func weights(json: String) throws {
        let fast = try #require(Self.fast(WeightBody.self, json))
        #expect(fast == Self.decoded(WeightBody.self, json))
    }

    @Test("a generated mix of members, values and spacing: whatever the fast path reads, JSONDecoder reads the same")
    func generated() throws {
        let keys = ["id", "name", "calories", "protein", "carbs", "fat", "fiber", "foodId", "grams", "portion", "quantity", "loggedAt", "other"]
        let values = [
            "null", "0", "-1", "420", "12.75", "1e3", "-2.5E-3", "99999999999999999999", #""""#, #""Soup""#, #""82,5""#,
            #"" 12 ""#, #""abc""#, #""2026-03-01T12:30:00Z""#, #""2026-03-01T12:30:00.125Z""#, #""3F2504E0-4F89-11D3-9A0C-0305E82C3301""#,
            "true", "[]", "{}", #""ü😀""#,
        ]
        var generator = SeededRandom(seed: 20_261_124)
        var taken = 0
        for _ in 0..<2_000 {
            var members: [String] = []
            for _ in 0..<Int(generator.next() % 6) {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                let value = values[Int(generator.next() % UInt64(values.count))]
                members.append(generator.next() % 2 == 0 ? "\"\(key)\":\(value)" : " \"\(key)\" :\n \(value) ")
            }
            let json = "{" + members.joined(separator: ",") + "}"
            guard let fast = Self.fast(MealBody.self, json) else { continue }
            taken += 1
            #expect(fast == Self.decoded(MealBody.self, json), "\(json)")
        }
        // Most generated bodies are plain enough for the fast path; the test must exercise it.
        #expect(taken > 500)
    }
}
