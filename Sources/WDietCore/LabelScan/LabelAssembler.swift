import Foundation

/// From the values found beside each name to the columns of a `LabelReading`: the column headers, the values placed
/// in their columns, kJ told from kcal, and the cross-checks that decide each field's confidence.
struct LabelAssembler {
    let page: Page
    let candidates: [Page.Candidate]
    let isUS: Bool

    /// Most of the panel's gram values carry their "g" (so a bare number ending in 9 is probably "…g").
    var gramsAttached: Bool {
        let grams = candidates.filter { ![.energyKcal, .energyKJ, .sodium].contains($0.nutrient) && $0.unitFromName == nil }
        return grams.count >= 3 && grams.count { $0.value.unit == .g } * 2 >= grams.count
    }

    struct Header {
        var basis: LabelBasis
        var midX: Double
        var servingText: String?
        var servingGrams: Double?
    }

    struct Field {
        var value: Double
        var unit: LabelUnit
        var lessThan: Bool
        var confidence: Double
        var dailyValue: Double?
        /// Other readings of a number OCR often gets wrong ("4,9" read as 49, "13.9g" as 13.99), tried only when
        /// a check fails as read and passes with one of them.
        var alternatives: [Double] = []

        /// This field, and each of its other readings (a little less sure).
        var variants: [Field] {
            [self] + alternatives.map { other in
                var variant = self
                variant.value = other
                variant.alternatives = []
                variant.confidence -= 0.05
                return variant
            }
        }
    }

    /// Starting confidence of a cleanly read field (name matched, value with its unit, OCR sure of it), before the
    /// cross-checks: just above the bar, so a field that nothing contradicts is filled and any failed check empties it.
    static let cleanRead = 0.87
    static let checkPassed = 0.1
    static let checkFailed = 0.3
    /// Where a field ends up at least when an independent check confirmed it as read (see `crossCheck`).
    static let strongEvidence = 0.9

    func assemble() -> LabelReading {
        let headers = findHeaders()
        var columns: [(Header, [LabelNutrient: Field])] = []
        let valueColumns = distinctValueColumns()
        var ambiguity = 0.0
        var layout: [Header] = headers
        if layout.isEmpty {
            // No header read: a US panel is per serving; elsewhere a single column is per 100 g (EU, UK, India
            // print per 100 g first), less sure when "100" is nowhere to be read.
            let hasPer100 = page.words.contains { Self.isPer100($0.word.text) || $0.word.text.hasPrefix("100") }
            let basis: LabelBasis = isUS ? .perServing : .per100g
            layout = [Header(basis: basis, midX: -1, servingText: nil, servingGrams: nil)]
            // A guessed basis: only fields a cross-check confirms are filled (a front-of-pack strip is per portion
            // and says so in words the parser does not read).
            if !isUS { ambiguity = valueColumns > 1 || !hasPer100 ? 0.15 : 0.1 }
        } else if layout.count == 1, valueColumns > 1, !isUS {
            // One header read, two columns of values: the other column is the other basis.
            let known = layout[0]
            let xs = candidates.map(\.value.midX)
            let otherX = xs.max(by: { abs($0 - known.midX) < abs($1 - known.midX) }) ?? known.midX
            if abs(otherX - known.midX) > page.medianHeight * 3 {
                layout.append(Header(basis: known.basis == .perServing ? .per100g : .perServing, midX: otherX, servingText: nil, servingGrams: nil))
                ambiguity = 0.05
            }
        }
        layout.sort { $0.midX < $1.midX }
        if layout.count >= 2 {
            // The headers give the columns' order and basis; where each column's values stand comes from the values
            // themselves (a long header like "pour 1 pot de 125 g" is centred elsewhere than its numbers).
            let xs = candidates.map(\.value.midX).sorted()
            var centres = xs.isEmpty ? layout.map(\.midX) : layout.indices.map { xs[$0 * (xs.count - 1) / (layout.count - 1)] }
            for _ in 0..<10 {
                var sums = [Double](repeating: 0, count: centres.count), counts = [Int](repeating: 0, count: centres.count)
                for x in xs {
                    let nearest = centres.indices.min { abs(centres[$0] - x) < abs(centres[$1] - x) }!
                    sums[nearest] += x
                    counts[nearest] += 1
                }
                for index in centres.indices where counts[index] > 0 { centres[index] = sums[index] / Double(counts[index]) }
            }
            if zip(centres, centres.dropFirst()).allSatisfy({ $0 < $1 - page.medianHeight }) {
                for index in layout.indices { layout[index].midX = centres[index] }
            }
        }
        let servingInfo = usServing()
        for (position, header) in layout.enumerated() {
            var header = header
            if header.basis == .perServing, header.servingGrams == nil, let servingInfo {
                header.servingText = header.servingText ?? servingInfo.0
                header.servingGrams = servingInfo.1
            }
            var fields: [LabelNutrient: Field] = [:]
            for nutrient in LabelNutrient.allCases where nutrient != .energyKJ {
                let own = candidates.filter { $0.nutrient == nutrient }
                guard !own.isEmpty else { continue }
                // The topmost name's row (a second "Fat" lower down is the footnote or another table).
                let rows = Dictionary(grouping: own, by: { ($0.rowY / (page.medianHeight * 0.8)).rounded() })
                let firstRowY = own.map(\.rowY).min()!
                let inFirstRows = own.filter { $0.rowY < firstRowY + page.medianHeight * 2.2 }
                _ = rows
                if nutrient == .energyKcal {
                    for (energy, candidate) in energyFields(inFirstRows, layout: layout, position: position) {
                        fields[energy] = candidate
                    }
                    continue
                }
                let inColumn = pick(inFirstRows, layout: layout, position: position)
                guard let candidate = inColumn else { continue }
                guard var field = field(for: nutrient, candidate) else { continue }
                field.confidence -= ambiguity
                fields[nutrient] = field
            }
            columns.append((header, fields))
        }
        crossCheck(&columns)
        let labelColumns = columns.map { header, fields in
            LabelColumn(
                basis: header.basis, servingText: header.servingText, servingGrams: header.servingGrams,
                values: fields.mapValues {
                    LabelFieldReading(value: $0.value, unit: $0.unit, confidence: max(0, min(1, $0.confidence)), lessThan: $0.lessThan)
                }
            )
        }.filter { !$0.values.isEmpty }
        let core: [[LabelNutrient]] = [[.energyKcal, .energyKJ], [.fat], [.carbohydrate], [.protein]]
        let best = labelColumns.map { column in
            Double(core.filter { group in group.contains { column.values[$0]?.isConfident == true } }.count) / Double(core.count)
        }.max() ?? 0
        return LabelReading(columns: labelColumns, panelFound: true, confidence: best)
    }

    /// How many value columns the rows show (the most values one name has, %DV not counted).
    func distinctValueColumns() -> Int {
        // Energy rows count per unit ("535 kJ / 127 kcal" in one column is one value of each).
        let byRow = Dictionary(grouping: candidates, by: { "\($0.nutrient)-\($0.rowY)-\($0.nutrient == .energyKcal ? "\($0.value.unit)" : "")" })
        return byRow.values.map(\.count).max() ?? 1
    }

    /// The candidate nearest to the column's x among those nearer to it than to any other column.
    func pick(_ list: [Page.Candidate], layout: [Header], position: Int) -> Page.Candidate? {
        if layout.count == 1 {
            if layout[0].midX >= 0, list.count > 1 {
                // One header read over two columns of values: the value nearest under it.
                return list.min { abs($0.value.midX - layout[0].midX) < abs($1.value.midX - layout[0].midX) }
            }
            // One column: the first value on the row (US: the amount before %DV; the next ones are other columns).
            return list.min { $0.value.x < $1.value.x }
        }
        let header = layout[position]
        return list.filter { candidate in
            let nearest = layout.indices.min { abs(layout[$0].midX - candidate.value.midX) < abs(layout[$1].midX - candidate.value.midX) }
            return nearest == position
        }.min { abs($0.value.midX - header.midX) < abs($1.value.midX - header.midX) }
    }

    /// Energy values in a column: kJ and kcal told apart by their units (or the name's), else by their ratio.
    func energyFields(_ list: [Page.Candidate], layout: [Header], position: Int) -> [(LabelNutrient, Field)] {
        var kJ: [Page.Candidate] = [], kcal: [Page.Candidate] = [], bare: [Page.Candidate] = []
        for candidate in list {
            switch candidate.value.unit == .none ? (candidate.unitFromName ?? .none) : candidate.value.unit {
            case .kJ: kJ.append(candidate)
            case .kcal: kcal.append(candidate)
            case .none: bare.append(candidate)
            default: break
            }
        }
        var out: [(LabelNutrient, Field)] = []
        if let pickedKJ = pick(kJ, layout: layout, position: position), var field = field(for: .energyKJ, pickedKJ) {
            field.unit = .kJ
            out.append((.energyKJ, field))
        }
        if let pickedKcal = pick(kcal, layout: layout, position: position), let field = field(for: .energyKcal, pickedKcal) {
            out.append((.energyKcal, field))
        } else if isUS, let pickedBare = pick(bare, layout: layout, position: position), var field = field(for: .energyKcal, pickedBare) {
            field.confidence += 0.08  // "Calories 250": US calories carry no unit
            out.append((.energyKcal, field))
        } else if !bare.isEmpty, out.isEmpty, let pickedBare = pick(bare, layout: layout, position: position), var field = field(for: .energyKcal, pickedBare) {
            field.confidence -= 0.1  // an energy without unit: kcal only if the checks agree
            out.append((.energyKcal, field))
        }
        return out
    }

    /// A candidate as a field in the field's unit, with its starting confidence; nil when its unit cannot be this field's.
    func field(for nutrient: LabelNutrient, _ candidate: Page.Candidate) -> Field? {
        let printed = candidate.value
        var unit = printed.unit == .none ? (candidate.unitFromName ?? .none) : printed.unit
        var value = printed.value
        var confidence = Self.cleanRead
        if printed.confidence < 0.6 { confidence -= 0.1 } else if printed.confidence < 0.8 { confidence -= 0.04 }
        if candidate.nameConfidence < 0.85 { confidence -= 0.05 }
        confidence -= printed.repaired
        var alternatives: [Double] = []
        if let shorter = printed.alternative, unit == .none, ![.energyKcal, .energyKJ].contains(nutrient) {
            // "59" / "13.99" without a unit where the panel prints "g" with its numbers: 5 g / 13.9 g, unless the
            // checks prefer the number as read.
            let decimals = String(printed.value).split(separator: ".").dropFirst().first?.count ?? 0
            if gramsAttached || decimals >= 2 {
                alternatives = [value]
                value = shorter
                unit = nutrient == .sodium ? .mg : .g
                confidence -= 0.05
            } else {
                alternatives = [shorter]
            }
        }
        // A decimal point or comma lost ("4,9" read as 49; "4,8g" as "489", the 9 dropped above: 4.8).
        if ![.energyKcal, .energyKJ, .sodium].contains(nutrient), !printed.lessThan {
            for candidateValue in [value] + alternatives where candidateValue >= 10 && candidateValue < 1000 && candidateValue == candidateValue.rounded() {
                alternatives.append(candidateValue / 10)
            }
        }
        switch nutrient {
        case .energyKcal, .energyKJ:
            if unit == .none { confidence -= isUS ? 0.08 : 0.1 }
            guard [.kcal, .kJ, .none].contains(unit) else { return nil }
            guard value <= (nutrient == .energyKJ ? 4000 : 950) else { return nil }
        case .sodium:
            switch unit {
            case .mg: break
            case .g: value *= 1000
            case .none: confidence -= 0.1
            default: return nil
            }
            unit = .mg
        case .salt:
            switch unit {
            case .g: break
            case .mg: value /= 1000
            case .none: confidence -= 0.1
            default: return nil
            }
            unit = .g
        default:
            switch unit {
            case .g: break
            case .none: confidence -= 0.1
            default: return nil
            }
            // Grams of a macro are printed to 0.1 g (0.01 at most): "0.125" is the "125 g" of a serving text
            // ("0,1259" beside "Protéines"), not a value.
            if abs((value * 100).rounded() - value * 100) > 1e-6 { return nil }
            alternatives.removeAll { $0 > 100 }
            if value > 100 {
                // No food has more than 100 g of anything per 100 g: "119" is "11g" (or 11.9) misread.
                guard !alternatives.isEmpty else { return nil }
                value = alternatives.removeFirst()
                // The 9 was the unit's g: no unit is missing after all.
                confidence += printed.unit == .none && printed.alternative == value ? 0.05 : -0.05
            }
            unit = .g
        }
        let labelUnit: LabelUnit = switch nutrient {
        case .energyKcal: .kcal
        case .energyKJ: .kJ
        case .sodium: .mg
        default: .g
        }
        return Field(value: value, unit: labelUnit, lessThan: printed.lessThan, confidence: confidence, dailyValue: candidate.dailyValue, alternatives: alternatives)
    }

    // MARK: Headers

    static func isPer100(_ text: String) -> Bool {
        let lowered = text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "()[]:*.,"))
        // "1009": the g of "100g" read as 9, as OCR often does.
        return ["100g", "100ml", "100gr", "100gm", "1009", "100mi"].contains(lowered)
    }

    /// Column headers: "per 100 g" / "pour 100 g" / "100 ml" and "per serving" / "pour 1 pot de 125 g" / "Portion",
    /// on rows without a nutrient name.
    func findHeaders() -> [Header] {
        let words = page.words
        let nameRows = candidates.map(\.rowY)
        let lastNameY = nameRows.max() ?? .infinity
        let firstNameY = nameRows.min() ?? 0
        func onNameRow(_ word: RecognizedWord) -> Bool {
            nameRows.contains { abs($0 - word.midY) < word.height * 0.5 }
        }
        var headers: [Header] = []
        let servingWords: Set<String> = ["serving", "portion", "pot", "portie", "porcion", "serve", "bar", "slice", "portionen", "biscuit", "pack", "packet"]
        for (index, entry) in words.enumerated() {
            let word = entry.word
            guard word.midY < lastNameY, word.midY > firstNameY - page.medianHeight * 12, !onNameRow(word) else { continue }
            let text = word.text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "()[]:*.,"))
            var per100Basis: LabelBasis?
            if Self.isPer100(text) {
                per100Basis = text.contains("ml") ? .per100ml : .per100g
            } else if text == "100", let next = page.rightOf(index, within: page.medianHeight * 1.2).first {
                let unit = words[next].word.text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "()[]:*.,"))
                if ["g", "gr", "ml", "9", "g)", "mi"].contains(unit) { per100Basis = unit == "ml" || unit == "mi" ? .per100ml : .per100g }
            }
            if let per100Basis {
                // "pour 1 portion de 100 g": a portion of 100 g is per 100 g.
                if headers.contains(where: { abs($0.midX - word.midX) < page.medianHeight * 4 && $0.basis != .perServing }) { continue }
                headers.removeAll { $0.basis == .perServing && $0.servingGrams == 100 && abs($0.midX - word.midX) < page.medianHeight * 8 }
                headers.append(Header(basis: per100Basis, midX: word.midX, servingText: nil, servingGrams: nil))
                continue
            }
            // A portion's header sits right above the table (not the product name's "Pot …" higher up).
            if servingWords.contains(entry.normalised), word.midY > firstNameY - page.medianHeight * 5 {
                // Not the US "Serving Size" / "Servings Per Container" lines.
                let next = page.rightOf(index, within: page.medianHeight * 2).first.map { words[$0].normalised } ?? ""
                if ["size", "per", "container", "sizes"].contains(next) { continue }
                let row = page.words.filter { page.sameRow(word, $0.word) }.map(\.normalised)
                if row.contains(where: { ["size", "servings", "container", "contains", "about", "serves"].contains($0) }) { continue }
                let following = page.rightOf(index, within: page.medianHeight * 6).prefix(5)
                var grams: Double?
                var lastIndex = index
                var pending: Double?
                for other in following {
                    let otherText = words[other].word.text
                    if let (value, unit, _, _) = ValueReader.parse(otherText) {
                        if unit == .g { grams = value; lastIndex = other; break }
                        if unit == .none { pending = value; lastIndex = other; continue }
                    } else if ValueReader.unit(of: otherText) == .g, let pending {
                        grams = pending
                        lastIndex = other
                        break
                    }
                }
                if grams == nil {
                    // "pour 1 pot" / "de 125 g" over two lines; "1259" is "125g" with the g read as 9.
                    let below = words.indices.filter { other in
                        let candidate = words[other].word
                        let dy = candidate.midY - word.midY
                        return dy > word.height * 0.5 && dy < word.height * 2.2 && candidate.x > word.x - word.height * 2 && candidate.x < word.maxX + word.height * 8
                    }.sorted { words[$0].word.x < words[$1].word.x }
                    for other in below {
                        let text = words[other].word.text.trimmingCharacters(in: CharacterSet(charactersIn: "()[]"))
                        if let (value, unit, _, _) = ValueReader.parse(text), unit == .g, value > 0 {
                            grams = value
                            break
                        }
                        if text.count >= 3, text.hasSuffix("9"), let value = Double(text.dropLast()), value >= 10 {
                            grams = value
                            break
                        }
                    }
                }
                if grams == 100 {
                    if headers.contains(where: { $0.basis == .per100g && abs($0.midX - word.midX) < page.medianHeight * 8 }) { continue }
                    headers.append(Header(basis: .per100g, midX: (word.x + words[lastIndex].word.maxX) / 2, servingText: nil, servingGrams: nil))
                    continue
                }
                if headers.contains(where: { $0.basis == .perServing && abs($0.midX - word.midX) < page.medianHeight * 6 }) { continue }
                let textWords = ([index] + following.filter { words[$0].word.x <= words[lastIndex].word.x }).map { words[$0].word.text }
                headers.append(Header(
                    basis: .perServing, midX: (word.x + words[lastIndex].word.maxX) / 2,
                    servingText: textWords.joined(separator: " "), servingGrams: grams
                ))
            }
        }
        // One header per basis: the one nearest the table (the lowest above the first name).
        var chosen: [Header] = []
        for basis in [LabelBasis.per100g, .per100ml, .perServing] {
            if let header = headers.last(where: { $0.basis == basis }) { chosen.append(header) }
        }
        if chosen.contains(where: { $0.basis == .per100g }) { chosen.removeAll { $0.basis == .per100ml } }
        return chosen
    }

    /// The US "Serving Size 1 cup (228g)" line: its text and grams.
    func usServing() -> (String, Double?)? {
        let words = page.words
        guard let start = words.indices.first(where: { index in
            words[index].normalised == "serving" && page.rightOf(index, within: page.medianHeight * 2).first.map { words[$0].normalised.hasPrefix("size") } == true
        }) else { return nil }
        let rest = page.rightOf(start).dropFirst().prefix(8).map { words[$0].word.text }
        guard !rest.isEmpty else { return nil }
        let text = rest.joined(separator: " ")
        var grams: Double?
        if let open = text.firstIndex(of: "(") {
            let inside = text[text.index(after: open)...].prefix { $0 != ")" }
            if let (value, unit, _, _) = ValueReader.parse(inside.replacingOccurrences(of: " ", with: "")), unit == .g { grams = value }
        }
        return (text, grams)
    }

    // MARK: Cross-checks

    func crossCheck(_ columns: inout [(Header, [LabelNutrient: Field])]) {
        // Per serving against per 100 g through the serving grams (the readings as read, else other readings that
        // make the two columns agree).
        if let serving = columns.firstIndex(where: { $0.0.basis == .perServing }),
            let per100 = columns.firstIndex(where: { $0.0.basis != .perServing }),
            let grams = columns[serving].0.servingGrams, grams > 0
        {
            for nutrient in LabelNutrient.allCases {
                guard let a = columns[serving].1[nutrient], let b = columns[per100].1[nutrient], !a.lessThan, !b.lessThan else { continue }
                func agree(_ a: Field, _ b: Field) -> Bool {
                    let expected = b.value * grams / 100
                    let tolerance = max(expected * 0.08, a.value.rounded() == a.value ? 0.6 : 0.06)
                    return abs(a.value - expected) <= tolerance
                }
                if max(a.value, b.value * grams / 100) < 1 { continue }
                var best: (Field, Field)?
                var fewest = Int.max
                for (aIndex, aVariant) in a.variants.enumerated() {
                    for (bIndex, bVariant) in b.variants.enumerated() where agree(aVariant, bVariant) {
                        let changes = (aIndex > 0 ? 1 : 0) + (bIndex > 0 ? 1 : 0)
                        if changes < fewest { fewest = changes; best = (aVariant, bVariant) }
                    }
                }
                if var (agreedA, agreedB) = best {
                    agreedA.confidence += Self.checkPassed
                    agreedB.confidence += Self.checkPassed
                    // Two columns read apart that agree through the serving grams (unchanged numbers of 1 or more).
                    if fewest == 0, agreedA.value >= 1, agreedA.confidence > 0.6, agreedB.confidence > 0.6 {
                        agreedA.confidence = max(agreedA.confidence, Self.strongEvidence)
                        agreedB.confidence = max(agreedB.confidence, Self.strongEvidence)
                    }
                    // Confirmed by the other column: no later check may change them.
                    agreedA.alternatives = []
                    agreedB.alternatives = []
                    columns[serving].1[nutrient] = agreedA
                    columns[per100].1[nutrient] = agreedB
                } else {
                    columns[serving].1[nutrient]!.confidence -= 0.2
                    columns[per100].1[nutrient]!.confidence -= 0.2
                }
            }
        }
        for index in columns.indices {
            var fields = columns[index].1
            func adjust(_ nutrients: [LabelNutrient], by amount: Double) {
                for nutrient in nutrients where fields[nutrient] != nil { fields[nutrient]!.confidence += amount }
            }
            // %DV against the value. US panels: the US references, old and new, loosely (US amounts are printed
            // rounded to 0.5 g or 1 g, the %DV computed before rounding). Elsewhere: the EU reference intakes (and
            // Australia's daily intakes): the value's percentage must round to the one printed — the US references'
            // loose match once "confirmed" fat 7.3 g where the label said 7.9 g (11 % of 70 g; 7.3 g is 10.4 %).
            // There a mismatch counts only on a panel of one value column (with two, the percentage is often the
            // portion's while the value is per 100 g).
            let references: [LabelNutrient: [Double]] = isUS
                ? [.fat: [65, 78], .saturatedFat: [20], .carbohydrate: [300, 275], .fiber: [25, 28], .sodium: [2400, 2300], .protein: [50]]
                : [.fat: [70], .saturatedFat: [20, 24], .carbohydrate: [260, 310], .sugars: [90], .protein: [50], .salt: [6], .sodium: [2300]]
            let tolerance = isUS ? 2.5 : 0.501
            for (nutrient, reference) in references {
                guard let field = fields[nutrient], let dailyValue = field.dailyValue, !field.lessThan else { continue }
                if !isUS, dailyValue < 1 { continue }  // "0 %" or "<1 %": too coarse to confirm anything
                var matches = reference.contains { abs(field.value / $0 * 100 - dailyValue) <= tolerance }
                if !matches, let other = field.variants.dropFirst().first(where: { variant in reference.contains { abs(variant.value / $0 * 100 - dailyValue) <= tolerance } }) {
                    fields[nutrient] = other
                    matches = true
                }
                if matches {
                    adjust([nutrient], by: Self.checkPassed)
                    fields[nutrient]!.alternatives = []  // confirmed: no other check may change it
                } else if isUS ? (field.value > 0 || dailyValue > 2) : columns.count == 1 {
                    adjust([nutrient], by: -0.15)
                }
            }
            // kJ against kcal.
            var energyTrusted = false
            if let kJ = fields[.energyKJ], let kcal = fields[.energyKcal] {
                let ratio = kcal.value > 0 ? kJ.value / kcal.value : (kJ.value <= 2 ? 4.184 : 0)
                if ratio >= 4.0 && ratio <= 4.35 {
                    adjust([.energyKJ, .energyKcal], by: Self.checkPassed)
                    energyTrusted = true
                } else {
                    adjust([.energyKJ, .energyKcal], by: -Self.checkFailed)
                }
            }
            // Energy against 4/4/9 × the macros (+2 × fibre, which EU carbohydrate leaves out).
            let kcal = fields[.energyKcal]?.value ?? fields[.energyKJ].map { $0.value / 4.184 }
            if let kcal, fields[.fat] != nil, fields[.carbohydrate] != nil, fields[.protein] != nil {
                func amount(_ field: Field) -> Double { field.lessThan ? field.value / 2 : field.value }
                func agrees(_ fat: Field, _ carbs: Field, _ protein: Field) -> Bool {
                    let estimate = 9 * amount(fat) + 4 * amount(carbs) + 4 * amount(protein)
                    let withFibre = estimate + 2 * (fields[.fiber].map(amount) ?? 0)
                    let tolerance = max(kcal * 0.15, 12)
                    return abs(kcal - estimate) <= tolerance || abs(kcal - withFibre) <= tolerance
                }
                // The readings as read, else the fewest other readings that make the energy add up.
                var agreeing: (Field, Field, Field)?
                var fewest = Int.max
                for (fatIndex, fat) in fields[.fat]!.variants.enumerated() {
                    for (carbsIndex, carbs) in fields[.carbohydrate]!.variants.enumerated() {
                        for (proteinIndex, protein) in fields[.protein]!.variants.enumerated() where agrees(fat, carbs, protein) {
                            let changes = (fatIndex > 0 ? 1 : 0) + (carbsIndex > 0 ? 1 : 0) + (proteinIndex > 0 ? 1 : 0)
                            if changes < fewest {
                                fewest = changes
                                agreeing = (fat, carbs, protein)
                            }
                        }
                    }
                }
                if let (fat, carbs, protein) = agreeing {
                    let changed = [LabelNutrient.fat: fat.value != fields[.fat]!.value, .carbohydrate: carbs.value != fields[.carbohydrate]!.value, .protein: protein.value != fields[.protein]!.value]
                    fields[.fat] = fat
                    fields[.carbohydrate] = carbs
                    fields[.protein] = protein
                    // A number changed to make the energy add up is only plausible, not confirmed (the 15 % tolerance
                    // cannot tell 1 g from 1.9 g): it gains nothing.
                    adjust([.energyKcal, .energyKJ] + [LabelNutrient.fat, .carbohydrate, .protein].filter { changed[$0] != true }, by: Self.checkPassed)
                    // Four numbers read apart that add up are strong evidence, whatever small doubts each carried
                    // (not for a label of zeros, and not for a number changed to make them add up).
                    if kcal >= 20 {
                        for nutrient in [LabelNutrient.energyKcal, .energyKJ, .fat, .carbohydrate, .protein] where changed[nutrient] != true {
                            if let confidence = fields[nutrient]?.confidence, confidence > 0.6 { fields[nutrient]!.confidence = max(confidence, Self.strongEvidence) }
                        }
                    }
                } else {
                    adjust([.fat, .carbohydrate, .protein], by: -Self.checkFailed)
                    if !energyTrusted { adjust([.energyKcal, .energyKJ], by: -Self.checkFailed) }
                }
            }
            // Not all three macros read: the energy must still cover those that were (fat 16 g is 144 kcal at least).
            if let kcal, fields[.fat] == nil || fields[.carbohydrate] == nil || fields[.protein] == nil {
                // Only macros read without much doubt count (a doubtful 4 g fat must not empty a 45 kcal energy).
                func sure(_ nutrient: LabelNutrient) -> Double { fields[nutrient].map { $0.confidence >= 0.8 ? $0.value : 0 } ?? 0 }
                let known = 9 * sure(.fat) + 4 * sure(.carbohydrate) + 4 * sure(.protein)
                if kcal < known * 0.8 - 10 {
                    adjust([.energyKcal, .energyKJ], by: -Self.checkFailed)
                }
            }
            // A part never exceeds its whole.
            for (part, whole) in [(LabelNutrient.saturatedFat, LabelNutrient.fat), (.sugars, .carbohydrate)] {
                guard var partField = fields[part], let wholeField = fields[whole] else { continue }
                if partField.value > wholeField.value + 0.05, !wholeField.lessThan,
                    let smaller = partField.variants.dropFirst().first(where: { $0.value <= wholeField.value + 0.05 })
                {
                    // "29" saturated of 2.9 g fat: the "2g" with its g read as 9.
                    fields[part] = smaller
                    partField = smaller
                }
                if partField.value > wholeField.value + 0.05 && !wholeField.lessThan {
                    adjust([part], by: -Self.checkFailed)
                    adjust([whole], by: -0.1)
                } else if wholeField.confidence >= LabelConfidence.threshold, !wholeField.lessThan, partField.variants.count > 1,
                    partField.variants.count { $0.value <= wholeField.value + 0.05 } == 1
                {
                    // Of the part's readings only this one fits under a whole the checks confirmed: the whole decides
                    // ("Sugars 19" under "Total Carbohydrate 1g" is 1 g with its g read as 9, not 19 or 1.9).
                    adjust([part], by: Self.checkPassed)
                } else {
                    adjust([part], by: 0.02)
                }
            }
            // Sodium against salt (salt = sodium × 2.5).
            if let sodium = fields[.sodium], let salt = fields[.salt] {
                let expected = sodium.value * 2.5 / 1000
                if abs(expected - salt.value) <= max(0.02, salt.value * 0.15) {
                    adjust([.sodium, .salt], by: Self.checkPassed)
                } else {
                    adjust([.sodium, .salt], by: -Self.checkFailed)
                }
            }
            columns[index].1 = fields
        }

    }
}
