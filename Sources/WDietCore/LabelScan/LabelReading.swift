import Foundation

// The nutrition-label reading's types: what an OCR engine gives the parser (`RecognizedWord`) and what the parser
// answers (`LabelReading`). Pure values, no I/O: the server fills them from Tesseract, a native client from its own
// OCR (Apple Vision), and both run the same `LabelParser`. See docs/label-scan.md.

/// The confidence bar (PRODUCT.md, 004 S3.3): a field below it is left empty and marked for the person to fill in,
/// and a reading below it offers "Try manual entry".
public enum LabelConfidence {
    public static let threshold = 0.85
}

/// One word as an OCR engine recognised it: its text, its box in image pixels (origin top left, y down) and the
/// engine's confidence from 0 to 1.
public struct RecognizedWord: Sendable, Hashable, Codable {
    public var text: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var confidence: Double

    public init(text: String, x: Double, y: Double, width: Double, height: Double, confidence: Double) {
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.confidence = confidence
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}

/// The fields a label reading fills.
public enum LabelNutrient: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
    case energyKcal, energyKJ, fat, saturatedFat, carbohydrate, sugars, fiber, protein, sodium, salt

    /// The unit the parser answers this field in (a label's "mg" sodium stays mg; "g" sodium is converted).
    public var unit: LabelUnit {
        switch self {
        case .energyKcal: .kcal
        case .energyKJ: .kJ
        case .sodium: .mg
        default: .g
        }
    }
}

public enum LabelUnit: String, Sendable, Hashable, Codable {
    case kcal, kJ, g, mg
}

/// What a column's values are per.
public enum LabelBasis: String, Sendable, Hashable, Codable, CaseIterable {
    /// Per serving (portion, pot, bar… as printed; US panels' only column).
    case perServing
    case per100g
    case per100ml
}

/// One field as read: the value in `unit`, and how sure the parser is (0…1; below `LabelConfidence.threshold` the
/// field is to be left empty). `lessThan` is true for "<1 g" / "less than 1g" (the value is then the bound).
public struct LabelFieldReading: Sendable, Hashable, Codable {
    public var value: Double
    public var unit: LabelUnit
    public var confidence: Double
    public var lessThan: Bool

    public init(value: Double, unit: LabelUnit, confidence: Double, lessThan: Bool = false) {
        self.value = value
        self.unit = unit
        self.confidence = confidence
        self.lessThan = lessThan
    }

    /// Confident enough to be filled in for the person.
    public var isConfident: Bool { confidence >= LabelConfidence.threshold }
}

/// One column of a label: its basis, the serving as printed ("1 pot de 125 g", "2/3 cup (55g)") with its grams when
/// printed, and the fields read in it.
public struct LabelColumn: Sendable, Hashable, Codable {
    public var basis: LabelBasis
    public var servingText: String?
    public var servingGrams: Double?
    public var values: [LabelNutrient: LabelFieldReading]

    public init(basis: LabelBasis, servingText: String? = nil, servingGrams: Double? = nil, values: [LabelNutrient: LabelFieldReading] = [:]) {
        self.basis = basis
        self.servingText = servingText
        self.servingGrams = servingGrams
        self.values = values
    }
}

/// Calories and macros for an amount eaten, from a reading: each nil when the label's field was not read with
/// confidence (kcal falls back to a confident kJ ÷ 4.184).
public struct LabelMacros: Sendable, Hashable, Codable {
    public var kcal: Double?
    public var protein: Double?
    public var carbs: Double?
    public var fat: Double?
    public var fiber: Double?

    public init(kcal: Double? = nil, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil, fiber: Double? = nil) {
        self.kcal = kcal
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.fiber = fiber
    }
}

/// What the parser read from one label.
public struct LabelReading: Sendable, Hashable, Codable {
    public var columns: [LabelColumn]
    /// False when no nutrition panel was found at all ("Try manual entry").
    public var panelFound: Bool
    /// The reading's overall confidence (0…1): the share of the core fields (energy, fat, carbohydrate, protein) of
    /// the best column read with confidence, lowered by failed cross-checks. Below the threshold: "Try manual entry".
    public var confidence: Double

    public init(columns: [LabelColumn], panelFound: Bool, confidence: Double) {
        self.columns = columns
        self.panelFound = panelFound
        self.confidence = confidence
    }

    public static let noPanel = LabelReading(columns: [], panelFound: false, confidence: 0)

    public func column(_ basis: LabelBasis) -> LabelColumn? {
        columns.first { $0.basis == basis }
    }

    /// Calories and macros for `amount` of the food on `basis`: for `.perServing` the amount is a number of servings
    /// (1 = one serving as printed); for `.per100g` grams and for `.per100ml` millilitres (100 = the column as
    /// printed). Only confident fields count; nil when the label has no such column.
    public func macros(basis: LabelBasis, amount: Double) -> LabelMacros? {
        guard let column = column(basis) else { return nil }
        let factor = basis == .perServing ? amount : amount / 100
        func value(_ nutrient: LabelNutrient) -> Double? {
            guard let field = column.values[nutrient], field.isConfident else { return nil }
            return field.value * factor
        }
        let kcal = value(.energyKcal) ?? value(.energyKJ).map { $0 / 4.184 }
        return LabelMacros(kcal: kcal, protein: value(.protein), carbs: value(.carbohydrate), fat: value(.fat), fiber: value(.fiber))
    }
}

extension LabelReading {
    /// This reading with the evidence of a second, independent one of the same label (another OCR pass: another
    /// scale, another crop): per column of the same basis, a field both read as the same number, each nearly sure
    /// (≥ `agreementFloor`), is confident — two reads of different pixels rarely make the same mistake; a field both
    /// read with confidence but as different numbers is a misreading in one of them and falls below the bar; a field
    /// only the other read, with confidence, is taken. Columns only the other reading has are not taken (a basis
    /// this reading did not see is a guess). The combined column must still hold together (a part not above its whole,
    /// kJ and kcal in ratio), else that pair is left below the bar. The overall confidence is computed again as the
    /// parser does.
    public func merged(with other: LabelReading) -> LabelReading {
        guard panelFound, other.panelFound else { return panelFound ? self : other }
        var columns = self.columns
        for index in columns.indices {
            guard let second = other.column(columns[index].basis) else { continue }
            for nutrient in LabelNutrient.allCases {
                let mine = columns[index].values[nutrient], theirs = second.values[nutrient]
                switch (mine, theirs) {
                case let (mine?, theirs?):
                    if abs(mine.value - theirs.value) < 1e-9, mine.lessThan == theirs.lessThan {
                        if min(mine.confidence, theirs.confidence) >= Self.agreementFloor {
                            columns[index].values[nutrient]!.confidence = max(mine.confidence, theirs.confidence, Self.agreed)
                        }
                    } else if mine.isConfident, theirs.isConfident {
                        columns[index].values[nutrient]!.confidence = Self.disagreed
                    }
                case let (nil, theirs?) where theirs.isConfident:
                    columns[index].values[nutrient] = theirs
                default:
                    break
                }
            }
        }
        // The combined column must still hold together where fields came from different passes: a part never above
        // its whole, kJ and kcal in their ratio. A pair that does not is left below the bar.
        for index in columns.indices {
            var values = columns[index].values
            for (part, whole) in [(LabelNutrient.saturatedFat, LabelNutrient.fat), (.sugars, .carbohydrate)] {
                guard let partField = values[part], let wholeField = values[whole], partField.isConfident, wholeField.isConfident,
                    !wholeField.lessThan, partField.value > wholeField.value + 0.05 else { continue }
                values[part]!.confidence = min(partField.confidence, Self.disagreed)
                values[whole]!.confidence = min(wholeField.confidence, Self.disagreed)
            }
            if let kJ = values[.energyKJ], let kcal = values[.energyKcal], kJ.isConfident, kcal.isConfident, kcal.value > 0,
                !(4.0...4.35).contains(kJ.value / kcal.value)
            {
                values[.energyKJ]!.confidence = min(kJ.confidence, Self.disagreed)
                values[.energyKcal]!.confidence = min(kcal.confidence, Self.disagreed)
            }
            columns[index].values = values
        }
        let core: [[LabelNutrient]] = [[.energyKcal, .energyKJ], [.fat], [.carbohydrate], [.protein]]
        let best = columns.map { column in
            Double(core.filter { group in group.contains { column.values[$0]?.isConfident == true } }.count) / Double(core.count)
        }.max() ?? 0
        return LabelReading(columns: columns, panelFound: true, confidence: best)
    }

    /// Both reads at least this sure of the same number: confident together.
    static let agreementFloor = 0.7
    /// What two agreeing reads give (just above the bar; a later check may still take it below).
    static let agreed = LabelConfidence.threshold + 0.02
    /// Two confident reads that disagree: below the bar, left empty.
    static let disagreed = LabelConfidence.threshold - 0.1
}
