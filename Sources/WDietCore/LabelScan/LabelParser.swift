import Foundation

/// Reads a nutrition panel from OCR words with their boxes: US Nutrition Facts (per serving, %DV column), EU tables
/// (per 100 g and per portion columns, kJ/kcal, salt) and German labels. Pure: words in, `LabelReading` out.
///
/// How: each nutrient's name is found first (phrases in English, German, French, Spanish; one typo allowed in long
/// words), then its values are looked for to its right on the same row (the row's slant measured from the words),
/// up to the next name. Columns come from the headers ("per 100 g", "per serving (15 g)", "pour 1 pot de 125 g") by
/// their x position. Every field starts from how cleanly it was read and is then cross-checked — energy against
/// 4/4/9 × the macros, kJ against kcal, per 100 g against per serving through the serving grams, %DV against the
/// value, sodium against salt, a part against its whole — and a field that fails loses confidence rather than being
/// guessed. See docs/label-scan.md.
public struct LabelParser: Sendable {
    public init() {}

    public func read(_ input: [RecognizedWord]) -> LabelReading {
        var page = Page(words: Self.splitMergedWords(input))
        return page.read()
    }

    /// "Fat12g" / "Protein4g" (a name and its value read as one word) split into two words with proportional boxes.
    static func splitMergedWords(_ words: [RecognizedWord]) -> [RecognizedWord] {
        var out: [RecognizedWord] = []
        for word in words {
            let characters = Array(word.text)
            if let firstDigit = characters.firstIndex(where: { $0.isNumber || $0 == "<" }), firstDigit >= 3,
                characters[..<firstDigit].allSatisfy({ $0.isLetter }),
                characters[firstDigit...].contains(where: { $0.isNumber })
            {
                let share = Double(firstDigit) / Double(characters.count)
                var name = word, value = word
                name.text = String(characters[..<firstDigit])
                name.width = word.width * share
                value.text = String(characters[firstDigit...])
                value.x = word.x + word.width * share
                value.width = word.width * (1 - share)
                out.append(name)
                out.append(value)
            } else {
                out.append(word)
            }
        }
        return out
    }
}

// MARK: - Names

enum LabelName: Hashable {
    case nutrient(LabelNutrient)
    /// A row that is not one of the fields (trans fat, cholesterol, "calories from fat", vitamins…): it stops the
    /// search for values and never gives one.
    case other
}

struct NamePhrase {
    var words: [String]
    var name: LabelName
}

/// The names a label prints for each field, and the fuzzy word matching used to find them (also by the OCR
/// pipeline's panel finder).
public enum LabelVocabulary {
    static let phrases: [NamePhrase] = {
        var list: [NamePhrase] = []
        func add(_ name: LabelName, _ texts: [String]) {
            for text in texts { list.append(NamePhrase(words: text.split(separator: " ").map(String.init), name: name)) }
        }
        add(.other, [
            "calories from fat", "cal from fat", "calories from", "fat cal", "fat calories", "trans fat", "trans", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
            "polyunsaturated fat", "monounsaturated fat", "polyunsaturated", "monounsaturated", "polyunsaturates",
            "monounsaturates", "mono unsaturates", "poly unsaturates", "unsaturated", "unsaturates", "ungesattigte",
            "einfach ungesattigte", "mehrfach ungesattigte", "mono insatures", "poly insatures", "cholesterol", "cholest",
            "cholesterin", "potassium", "vitamin", "calcium", "iron", "added sugars", "incl added sugars", "includes", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
            "sugar alcohol", "sugar alcohols", "other carbohydrate", "soluble fiber", "insoluble fiber", "starch", "starke",
            "amidon", "polyols", "lactose", "daily value", "thiamin", "riboflavin", "niacin", "magnesium", "zinc",
            "phosphorus", "folate", "monoinsaturadas", "poliinsaturadas", "mmol",
        ])
        add(.nutrient(.energyKcal), [
            "calories", "calorie", "energy", "energie", "brennwert", "energia", "valeur energetique", "valeurs energetiques",
            "energetic value", "energy value", "valor energetico",
        ])
        add(.nutrient(.fat), [
            "total fat", "fat", "fats", "total fats", "fett", "matieres grasses", "matiere grasse", "lipides", "grasas",
            "grasas totales", "grassi", "vet", "fat total", "total lipid",
        ])
        add(.nutrient(.saturatedFat), [
            "saturated fat", "sat fat", "saturated", "saturates", "of which saturates", "saturated fatty acids", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
            "gesattigte fettsauren", "davon gesattigte fettsauren", "gesattigte", "acides gras satures", "dont acides gras satures", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
            "satures", "saturadas", "grasas saturadas", "de las cuales saturadas", "saturated fats", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
        ])
        add(.nutrient(.carbohydrate), [
            "total carbohydrate", "total carbohydrates", "carbohydrate", "carbohydrates", "total carb", "total carbs", "carbs",
            "kohlenhydrate", "glucides", "hidratos de carbono", "hidratos", "carboidrati", "koolhydraten", "carbohydrate total", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
        ])
        add(.nutrient(.sugars), [
            "sugars", "sugar", "total sugars", "total sugar", "of which sugars", "zucker", "davon zucker", "sucres", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
            "dont sucres", "azucares", "de los cuales azucares", "zuccheri", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
        ])
        add(.nutrient(.fiber), [
            "dietary fiber", "fiber", "fibre", "dietary fibre", "fibres", "fibers", "ballaststoffe", "fibres alimentaires",
            "fibra", "fibra alimentaria", "total dietary fiber", // catalog-exempt: words a label prints, matched against OCR (not the app's copy)
        ])
        add(.nutrient(.protein), ["protein", "proteins", "eiweiss", "eiweis", "eiweib", "proteines", "proteinas", "proteine", "eiwei"])
        add(.nutrient(.sodium), ["sodium", "natrium", "sodio"])
        add(.nutrient(.salt), ["salt", "salz", "sel", "sal", "salt equivalent"])
        // Longest first: "saturated fat" before "fat", "calories from fat" before "calories".
        return list.sorted { $0.words.count > $1.words.count }
    }()

    /// Lower case, accents and umlauts folded, ß as ss, letters only.
    public static func normalise(_ text: String) -> String {
        let folded = text.replacingOccurrences(of: "ß", with: "ss").folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        return String(folded.lowercased().unicodeScalars.filter { CharacterSet.lowercaseLetters.contains($0) }.map(Character.init))
    }

    /// 0 for the same word, 1 for one typo (words of 5 letters or more; 2 from 9 letters), nil otherwise.
    public static func distance(_ word: String, _ target: String) -> Int? {
        if let direct = editDistance(word, target) { return direct }
        // The first letters lost at the edge of a curved can ("alories", "odium"): one or two letters, one more typo.
        if target.count >= 6, word.count >= 4 {
            for cut in 1...2 where word.count >= target.count - cut - 1 && word.count <= target.count - cut + 1 {
                if let rest = editDistance(word, String(target.dropFirst(cut))), rest <= 1 { return rest + 1 }
            }
        }
        return nil
    }

    static func editDistance(_ word: String, _ target: String) -> Int? {
        if word == target { return 0 }
        let limit = target.count >= 9 ? 2 : (target.count >= 5 ? 1 : 0)
        guard limit > 0, abs(word.count - target.count) <= limit else { return nil }
        let a = Array(word), b = Array(target)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}

// MARK: - Values

/// A number as printed, with its unit when one was printed with it.
struct PrintedValue {
    enum Unit: Equatable { case g, mg, kcal, kJ, percent, microgram, ml, none }
    var value: Double
    var unit: Unit
    var lessThan: Bool
    /// What guessing cost: characters read as digits ("O" as 0, "l" as 1), a missing decimal point restored, a "g"
    /// read as "9" dropped; 0 for a clean read. Subtracted from the field's confidence.
    var repaired: Double
    /// The other reading when a guess was made ("13.99" read as 13.9 g: the alternative is 13.99).
    var alternative: Double?
    var confidence: Double
    var x: Double
    var midX: Double
    var midY: Double = 0
}

enum ValueReader {
    /// The values in one word, e.g. "12g", "<1g", "0,5", "535kJ/127kcal", "(127", "kcal)"; empty when none.
    static func values(in text: String) -> [(Double, PrintedValue.Unit, Bool, Double)] {
        let parts = text.split(whereSeparator: { $0 == "/" || $0 == "|" }).map(String.init)
        return parts.compactMap { parse($0) }
    }

    static func unit(of raw: String) -> PrintedValue.Unit? {
        switch raw.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "()[]*.,:;")) {
        case "g", "gr", "gm", "grams", "9": .g
        case "mg": .mg
        case "kcal", "kcals", "cal", "kcai", "keal", "kcat", "kca", "kcl": .kcal
        case "kj", "kl", "kji", "k": .kJ
        case "%": .percent
        case "mcg", "µg", "ug": .microgram
        case "ml": .ml
        default: nil
        }
    }

    /// One number and the unit written right after it.
    static func parse(_ raw: String) -> (Double, PrintedValue.Unit, Bool, Double)? {
        var text = raw.trimmingCharacters(in: CharacterSet(charactersIn: "()[]{}*:;'\"‘’“”~-—–=+ "))
        var lessThan = false
        if text.hasPrefix("<") || text.hasPrefix("≤") || text.hasPrefix("‹") {
            lessThan = true
            text.removeFirst()
        }
        guard !text.isEmpty else { return nil }
        var characters = Array(text)
        // Where the number ends and the unit begins: the unit is the longest tail of letters/% that is a known unit.
        var split = characters.count
        while split > 0, characters[split - 1].isLetter || characters[split - 1] == "%" || characters[split - 1] == "µ" { split -= 1 }
        var unitText = String(characters[split...])
        var numberPart = Array(characters[..<split])
        // "Og" / "lg" / "ig": a number made only of look-alikes (0 or 1), with a unit; each guessed digit costs what
        // it costs inside a number (`finish`).
        if numberPart.isEmpty, !unitText.isEmpty {
            let lookalike = Array(unitText)
            if let cut = (1..<lookalike.count).first(where: { unit(of: String(lookalike[$0...])) != nil }),
                lookalike[..<cut].allSatisfy({ "OolIi".contains($0) })
            {
                numberPart = Array(lookalike[..<cut])
                unitText = String(lookalike[cut...])
                characters = numberPart + Array(unitText)
                return finish(numberPart: numberPart, unitText: unitText, lessThan: lessThan, repaired: 0)
            }
            return nil
        }
        return finish(numberPart: numberPart, unitText: unitText, lessThan: lessThan, repaired: 0)
    }

    private static func finish(numberPart: [Character], unitText: String, lessThan: Bool, repaired initiallyRepaired: Double) -> (Double, PrintedValue.Unit, Bool, Double)? {
        var repaired = initiallyRepaired
        let unit: PrintedValue.Unit
        if unitText.isEmpty {
            unit = .none
        } else if let known = Self.unit(of: unitText) {
            unit = known
        } else {
            return nil
        }
        var digits = ""
        for character in numberPart {
            switch character {
            case "0"..."9": digits.append(character)
            case ".", ",": digits.append(character)
            case "O", "o":
                digits.append("0")
                repaired += 0.03
            case "D", "Q":
                digits.append("0")
                repaired += 0.1
            case "l", "I", "|", "i", "!":
                digits.append("1")
                repaired += 0.08
            case "S" where unit != .none:
                digits.append("5")
                repaired += 0.1
            default: return nil
            }
        }
        guard digits.contains(where: { $0.isNumber }) else { return nil }
        if repaired > 0, !numberPart.contains(where: { $0.isNumber }), unit == .none { return nil }
        // Separators: "2,400" (thousands) vs "0,5" / "1,2" (decimal comma).
        let separators = digits.filter { $0 == "." || $0 == "," }
        var normalised = digits
        if separators.count > 1 {
            return nil
        } else if let comma = digits.firstIndex(of: ",") {
            let before = digits[..<comma], after = digits[digits.index(after: comma)...]
            if after.count == 3, before != "0", !before.isEmpty {
                normalised = String(before) + String(after)
            } else {
                normalised = String(before) + "." + String(after)
            }
        }
        if normalised.hasPrefix(".") { normalised = "0" + normalised }
        if normalised.hasSuffix(".") { normalised.removeLast() }
        guard var value = Double(normalised) else { return nil }
        // "05g": the decimal point of 0.5 g lost.
        if normalised.count >= 2, normalised.hasPrefix("0"), !normalised.contains("."), unit != .percent {
            value = Double("0." + normalised.dropFirst()) ?? value
            repaired += 0.12
        }
        return (value, unit, lessThan, repaired)
    }
}

// MARK: - The page

struct Page {
    struct Word {
        var word: RecognizedWord
        var normalised: String
        var used = false
    }

    struct NameHit {
        var name: LabelName
        var first: Int
        var last: Int
        var typos: Int
        /// The phrase's words, first to last.
        var words: [Int] = []
        var x: Double { 0 }
    }

    struct Candidate {
        var nutrient: LabelNutrient
        var value: PrintedValue
        var nameConfidence: Double
        var dailyValue: Double?
        var unitFromName: PrintedValue.Unit?
        var rowY: Double
    }

    var words: [Word]
    let medianHeight: Double
    let slope: Double

    init(words input: [RecognizedWord]) {
        let cleaned = input.filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty && $0.height > 0 }
        words = cleaned.map { Word(word: $0, normalised: LabelVocabulary.normalise($0.text)) }
        let heights = cleaned.map(\.height).sorted()
        medianHeight = heights.isEmpty ? 10 : heights[heights.count / 2]
        // The rows' slant: the median dy/dx between neighbours on a row.
        var slopes: [Double] = []
        let sorted = cleaned.sorted { $0.x < $1.x }
        for (index, word) in sorted.enumerated() {
            for other in sorted[(index + 1)...].prefix(12) {
                let gap = other.x - word.maxX
                guard gap > -word.height * 0.2, gap < max(word.height, other.height) * 3 else { continue }
                let dy = other.midY - word.midY, dx = other.midX - word.midX
                guard dx > 0, abs(dy) < min(word.height, other.height) * 0.6 else { continue }
                slopes.append(dy / dx)
                break
            }
        }
        slopes.sort()
        slope = slopes.count >= 5 ? slopes[slopes.count / 2] : 0
    }

    func sameRow(_ a: RecognizedWord, _ b: RecognizedWord, tolerance: Double = 0.6) -> Bool {
        let expected = a.midY + slope * (b.midX - a.midX)
        return abs(b.midY - expected) < min(a.height, b.height) * tolerance + 1
    }

    /// Indices of the words to the right of `index` on its row, nearest first.
    func rightOf(_ index: Int, within maxGap: Double? = nil, tolerance: Double = 0.6) -> [Int] {
        let anchor = words[index].word
        return words.indices
            .filter { $0 != index && words[$0].word.x > anchor.x + anchor.width * 0.5 && sameRow(anchor, words[$0].word, tolerance: tolerance) }
            .filter { maxGap == nil || words[$0].word.x - anchor.maxX < maxGap! }
            .sorted { words[$0].word.x < words[$1].word.x }
    }

    // Names: each word starts at most one phrase; the phrase's next words are the nearest words to the right.
    func findNames() -> [NameHit] {
        var hits: [NameHit] = []
        var consumed = Set<Int>()
        let order = words.indices.sorted { (words[$0].word.midY, words[$0].word.x) < (words[$1].word.midY, words[$1].word.x) }
        for start in order where !consumed.contains(start) && !words[start].normalised.isEmpty {
            if consumed.contains(start) { continue }
            // The chain of next words: each the nearest to the right of the one before, close to it.
            var following = [start]
            while following.count < 4, let next = rightOf(following.last!, within: max(medianHeight, words[following.last!].word.height) * 2).first {
                following.append(next)
            }
            var best: (NamePhrase, Int, [Int])?
            for phrase in LabelVocabulary.phrases where phrase.words.count <= following.count {
                var typos = 0
                var matched = true
                var chain: [Int] = []
                var previous = start
                for (offset, target) in phrase.words.enumerated() {
                    let index = offset == 0 ? start : following[offset]
                    if offset > 0 {
                        // consecutive: no other word between
                        guard words[index].word.x - words[previous].word.maxX < max(medianHeight, words[previous].word.height) * 2 else { matched = false; break }
                    }
                    guard let distance = LabelVocabulary.distance(words[index].normalised, target) else { matched = false; break }
                    typos += distance
                    chain.append(index)
                    previous = index
                }
                if matched {
                    if best == nil || phrase.words.count > best!.0.words.count || (phrase.words.count == best!.0.words.count && typos < best!.1) {
                        best = (phrase, typos, chain)
                    }
                }
            }
            if let (phrase, typos, chain) = best {
                chain.forEach { consumed.insert($0) }
                hits.append(NameHit(name: phrase.name, first: chain.first!, last: chain.last!, typos: typos, words: chain))
            }
        }
        // A word read as a name of its own and also inside a longer phrase belongs to the phrase: on a slanted row
        // "Fat" of "Calories from Fat 15" can stand higher than "Calories" and be found first. So does a one-word
        // name right after another name on its row, or inside its box: "Polyunsaturated" read 780 px wide over
        // "Fat0.5g" is one row name, not the fat field.
        return hits.filter { hit in
            if hits.contains(where: { other in other.words.count > hit.words.count && Set(hit.words).isSubset(of: other.words) }) { return false }
            guard hit.words.count == 1 else { return true }
            let word = words[hit.first].word
            return !hits.contains { other in
                let before = words[other.last].word
                return other.last != hit.first && before.x < word.x && word.x - before.maxX < medianHeight * 0.5 && sameRow(before, word)
            }
        }
    }

    mutating func read() -> LabelReading {
        guard !words.isEmpty else { return .noPanel }
        let names = findNames()
        let nutrientNames = names.filter { if case .nutrient = $0.name { true } else { false } }
        let distinct = Set(nutrientNames.map(\.name))
        guard distinct.count >= 2 else { return .noPanel }

        // US footnote ("Percent Daily Values are based on a 2,000 calorie diet…" and its table): names below it are
        // the reference amounts, not the food's.
        let footnoteY = words.filter { ["2000", "2,000", "2.000"].contains($0.word.text.trimmingCharacters(in: CharacterSet(charactersIn: "*,.;:"))) }
            .map(\.word.y).min()
        // A US panel: "Calories", "Serving", "Daily Value", "Amount/Serving"; never kJ or per 100 g.
        let isUS = words.contains { word in
            ["nutrition", "serving", "daily", "amount", "calories", "servings"].contains(word.normalised) || word.normalised.hasSuffix("serving")
        } && !words.contains { ["kj", "100g", "1009"].contains($0.normalised.lowercased()) || $0.word.text.lowercased().hasPrefix("100g") || $0.normalised == "kj" }
        let nameWordIndices = Set(names.flatMap { [$0.first, $0.last] })

        var candidates: [Candidate] = []
        for hit in names {
            guard case .nutrient(let nutrient) = hit.name else { continue }
            let nameWord = words[hit.last].word
            if let footnoteY, nameWord.y > footnoteY - medianHeight * 0.3 { continue }
            let nameConfidence = max(0.5, min(1, words[hit.first].word.confidence + 0.1)) - Double(hit.typos) * 0.08
            // A unit in the name: "Fat (g)", "Energy (kcal)", "Energie kJ".
            var unitFromName: PrintedValue.Unit?
            var values: [PrintedValue] = []
            var pendingNumber: (Double, Bool, Double, Double, Double, Double, Double)?  // value, lessThan, repaired, conf, x, midX
            var lessThanWords = false
            var dailyValue: Double?
            var nineAsGram: [(Double, Double, Double)] = []
            func flush(unit: PrintedValue.Unit) {
                if let (value, lessThan, repaired, confidence, x, midX, midY) = pendingNumber {
                    values.append(PrintedValue(value: value, unit: unit, lessThan: lessThan, repaired: repaired, alternative: nil, confidence: confidence, x: x, midX: midX, midY: midY))
                    pendingNumber = nil
                }
            }
            var previousMaxX = nameWord.maxX
            var lastWordWasValue = false
            for index in rightOf(hit.last, tolerance: 0.75) {
                if nameWordIndices.contains(index) {
                    // Linear text ("…, 220mg sodium, 320mg potassium"): a number right before a name is that name's.
                    // (A word's space apart, not a table's gap; never "Calories 140 Calories from Fat 45".)
                    if words[index].word.x - previousMaxX < medianHeight * 0.6, !words[index].normalised.hasPrefix("cal") {
                        if pendingNumber != nil {
                            pendingNumber = nil
                        } else if lastWordWasValue, !values.isEmpty {
                            values.removeLast()
                        }
                    }
                    break
                }
                let valuesBefore = values.count, pendingBefore = pendingNumber != nil
                defer {
                    previousMaxX = words[index].word.maxX
                    lastWordWasValue = values.count > valuesBefore || (pendingNumber != nil && !pendingBefore)
                }
                let word = words[index].word
                let text = word.text
                let lowered = text.lowercased()
                if lowered == "less" || lowered == "than" || lowered == "<" {
                    lessThanWords = true
                    continue
                }
                if let unit = ValueReader.unit(of: text), unit != .percent, pendingNumber == nil, values.isEmpty, text.count > 1 || text.hasPrefix("(") {
                    unitFromName = unit
                    continue
                }
                // A "%" a column away from the number before it is the next column's ("3,89   %" with the %RI's digits
                // lost): the number stays a value. (A "g" set apart is still the number's: some tables align units.)
                if ValueReader.unit(of: text) == .percent, pendingNumber != nil, word.x - previousMaxX > max(medianHeight, word.height) * 1.5 {
                    flush(unit: .none)
                    continue
                }
                if let unit = ValueReader.unit(of: text), pendingNumber != nil {
                    if unit == .percent {
                        if dailyValue == nil { dailyValue = pendingNumber!.0 }
                        pendingNumber = nil
                    } else {
                        flush(unit: unit)
                    }
                    continue
                }
                let parsed = ValueReader.values(in: text)
                if parsed.isEmpty {
                    if text.trimmingCharacters(in: .punctuationCharacters).isEmpty { continue }
                    if words[index].normalised.count >= 3 { break }  // another row's words: stop
                    continue
                }
                for (value, unit, lessThan, repaired) in parsed {
                    if pendingNumber != nil { flush(unit: .none) }
                    if unit == .percent {
                        if dailyValue == nil { dailyValue = value }
                        continue
                    }
                    if unit == .none {
                        // "5g" / "13.9g" with the g read as 9 ("59", "13.99"): the number without its last 9, kept
                        // as the other reading.
                        let core = text.trimmingCharacters(in: CharacterSet(charactersIn: "()[]{}*:;<"))
                        if parsed.count == 1, core.count >= 2, core.hasSuffix("9"), core.dropLast().last != ".", core.dropLast().last != ",",
                            let (shorter, _, _, _) = ValueReader.parse(String(core.dropLast())) {
                            nineAsGram.append((value, shorter, word.midX))
                        }
                        pendingNumber = (value, lessThan || lessThanWords, repaired, word.confidence, word.x, word.midX, word.midY)
                    } else {
                        values.append(PrintedValue(value: value, unit: unit, lessThan: lessThan || lessThanWords, repaired: repaired, alternative: nil, confidence: word.confidence, x: word.x, midX: word.midX, midY: word.midY))
                    }
                    lessThanWords = false
                }
                if values.count >= 4 { break }
            }
            flush(unit: .none)
            for (printed, shorter, midX) in nineAsGram {
                if let index = values.firstIndex(where: { $0.midX == midX && $0.value == printed && $0.unit == .none }) {
                    values[index].alternative = shorter
                }
            }
            for value in values {
                candidates.append(Candidate(nutrient: nutrient, value: value, nameConfidence: nameConfidence, dailyValue: dailyValue, unitFromName: unitFromName, rowY: nameWord.midY))
            }
            // Energy printed on two rows: "Energie 535 kJ" then "127 kcal" under it (no name of its own).
            if nutrient == .energyKcal {
                let below = words.indices.filter { index in
                    let word = words[index].word
                    let dy = word.midY - (nameWord.midY + slope * (word.midX - nameWord.midX))
                    return dy > nameWord.height * 0.6 && dy < nameWord.height * 1.9 && word.x > nameWord.x - medianHeight && !nameWordIndices.contains(index)
                }
                for index in below {
                    let word = words[index].word
                    for (value, unit, lessThan, repaired) in ValueReader.values(in: word.text) where unit == .kcal || unit == .kJ {
                        candidates.append(Candidate(
                            nutrient: nutrient,
                            value: PrintedValue(value: value, unit: unit, lessThan: lessThan, repaired: repaired, alternative: nil, confidence: word.confidence * 0.97, x: word.x, midX: word.midX, midY: word.midY),
                            nameConfidence: nameConfidence, dailyValue: nil, unitFromName: nil, rowY: word.midY
                        ))
                    }
                }
            }
        }
        // "580.8 kcal" on a row whose name was not read: kcal and kJ belong to energy wherever they stand in the panel.
        if let top = candidates.map(\.rowY).min(), let bottom = candidates.map(\.rowY).max() {
            let claimed = Set(candidates.map { "\($0.value.midX),\($0.value.midY)" })
            for (index, entry) in words.enumerated() where !nameWordIndices.contains(index) {
                let word = entry.word
                guard word.midY > top - medianHeight * 4, word.midY < bottom, !claimed.contains("\(word.midX),\(word.midY)") else { continue }
                var parsed = ValueReader.values(in: word.text).filter { $0.1 == .kcal || $0.1 == .kJ }
                var source = word
                if parsed.isEmpty, let unit = ValueReader.unit(of: word.text), unit == .kcal || unit == .kJ,
                    let previous = words.indices.filter({ words[$0].word.maxX <= word.x + 2 && word.x - words[$0].word.maxX < medianHeight * 1.5 && sameRow(words[$0].word, word) }).max(by: { words[$0].word.x < words[$1].word.x }),
                    let (value, bare, lessThan, repaired) = ValueReader.parse(words[previous].word.text), bare == .none
                {
                    source = words[previous].word
                    if claimed.contains("\(source.midX),\(source.midY)") { continue }
                    parsed = [(value, unit, lessThan, repaired)]
                }
                for (value, unit, lessThan, repaired) in parsed where !candidates.contains(where: { $0.nutrient == .energyKcal && abs($0.value.midX - source.midX) < medianHeight && abs($0.rowY - source.midY) < medianHeight * 0.5 }) {
                    candidates.append(Candidate(
                        nutrient: .energyKcal,
                        value: PrintedValue(value: value, unit: unit, lessThan: lessThan, repaired: repaired + 0.03, alternative: nil, confidence: source.confidence, x: source.x, midX: source.midX, midY: source.midY),
                        nameConfidence: 0.8, dailyValue: nil, unitFromName: nil, rowY: word.midY
                    ))
                }
            }
        }
        return LabelAssembler(page: self, candidates: candidates, isUS: isUS).assemble()
    }
}
