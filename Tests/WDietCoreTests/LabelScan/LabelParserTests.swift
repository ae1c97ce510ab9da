import Foundation
import Testing
import WDietCore

/// Words laid out as an OCR engine would give them: each row at `y`, each word at its x, 20 px high, 11 px a letter.
func labelRows(_ rows: [(Double, [(String, Double)])], confidence: Double = 0.95) -> [RecognizedWord] {
    rows.flatMap { y, items in
        items.map { text, x in RecognizedWord(text: text, x: x, y: y, width: Double(text.count) * 11, height: 20, confidence: confidence) }
    }
}

extension LabelReading {
    /// A confident value of a column, else nil.
    func confident(_ nutrient: LabelNutrient, _ basis: LabelBasis) -> Double? {
        guard let field = column(basis)?.values[nutrient], field.isConfident else { return nil }
        return field.value
    }
}

@Suite("Label parser")
struct LabelParserTests {
    static let usPanel: [(Double, [(String, Double)])] = [
        (0, [("Nutrition", 10), ("Facts", 130)]),
        (40, [("Serving", 10), ("Size", 100), ("1", 160), ("cup", 180), ("(228g)", 230)]),
        (80, [("Amount", 10), ("Per", 90), ("Serving", 130)]),
        (120, [("Calories", 10), ("250", 110), ("Calories", 200), ("from", 300), ("Fat", 355), ("110", 400)]),
        (160, [("%", 300), ("Daily", 320), ("Value*", 380)]),
        (200, [("Total", 10), ("Fat", 75), ("12g", 120), ("18%", 400)]),
        (240, [("Saturated", 30), ("Fat", 140), ("3g", 185), ("15%", 400)]),
        (280, [("Trans", 30), ("Fat", 100), ("3g", 145)]),
        (320, [("Cholesterol", 10), ("30mg", 140), ("10%", 400)]),
        (360, [("Sodium", 10), ("470mg", 95), ("20%", 400)]),
        (400, [("Total", 10), ("Carbohydrate", 75), ("31g", 220), ("10%", 400)]),
        (440, [("Dietary", 30), ("Fiber", 115), ("0g", 180), ("0%", 400)]),
        (480, [("Sugars", 30), ("5g", 110)]),
        (520, [("Protein", 10), ("5g", 100)]),
        (600, [("*Percent", 10), ("Daily", 110), ("Values", 170), ("are", 245), ("based", 290), ("on", 355), ("a", 385), ("2,000", 400), ("calorie", 470), ("diet.", 560)]),
        (640, [("Calories:", 120), ("2,000", 250), ("2,500", 350)]),
        (680, [("Total", 10), ("Fat", 75), ("Less", 120), ("than", 175), ("65g", 250), ("80g", 350)]),
        (720, [("Sodium", 10), ("Less", 120), ("than", 175), ("2,400mg", 250), ("2,400mg", 350)]),
    ]

    @Test("a US Nutrition Facts panel: per serving, %DV and the footnote's reference amounts left out")
    func usPanel() throws {
        let reading = LabelParser().read(labelRows(Self.usPanel))
        #expect(reading.panelFound)
        let column = try #require(reading.column(.perServing))
        #expect(column.servingGrams == 228)
        #expect(reading.confident(.energyKcal, .perServing) == 250)
        #expect(reading.confident(.fat, .perServing) == 12)  // not "Calories from Fat 110", not the footnote's 65 g
        #expect(reading.confident(.saturatedFat, .perServing) == 3)
        #expect(reading.confident(.sodium, .perServing) == 470)
        #expect(reading.confident(.carbohydrate, .perServing) == 31)
        #expect(reading.confident(.fiber, .perServing) == 0)
        #expect(reading.confident(.protein, .perServing) == 5)
        #expect(reading.column(.per100g) == nil)
        #expect(reading.confidence == 1)
        let macros = try #require(reading.macros(basis: .perServing, amount: 2))
        #expect(macros.kcal == 500)
        #expect(macros.fat == 24)
    }

    @Test("a German table: per 100 g and per portion columns, kJ and kcal, salt, davon-rows")
    func germanTable() throws {
        let words = labelRows([
            (0, [("Nährwerte", 10), ("pro", 200), ("100", 240), ("g", 280), ("pro", 350), ("Portion", 390), ("(30", 480), ("g)", 520)]),
            (40, [("Brennwert", 10), ("1580", 200), ("kJ", 250), ("474", 350), ("kJ", 395)]),
            (70, [("376", 200), ("kcal", 240), ("113", 350), ("kcal", 395)]),
            (110, [("Fett", 10), ("8,0", 200), ("g", 240), ("2,4", 350), ("g", 390)]),
            (150, [("davon", 30), ("gesättigte", 95), ("Fettsäuren", 210), ("1,2", 350), ("g", 390)]),
            (190, [("Kohlenhydrate", 10), ("62", 200), ("g", 230), ("18,6", 350), ("g", 400)]),
            (230, [("davon", 30), ("Zucker", 95), ("21", 200), ("g", 230), ("6,3", 350), ("g", 390)]),
            (270, [("Ballaststoffe", 10), ("6,5", 200), ("g", 240), ("2,0", 350), ("g", 390)]),
            (310, [("Eiweiß", 10), ("10", 200), ("g", 230), ("3,0", 350), ("g", 390)]),
            (350, [("Salz", 10), ("0,50", 200), ("g", 250), ("0,15", 350), ("g", 400)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.confident(.energyKJ, .per100g) == 1580)
        #expect(reading.confident(.energyKcal, .per100g) == 376)
        #expect(reading.confident(.energyKcal, .perServing) == 113)
        #expect(reading.confident(.fat, .per100g) == 8)
        #expect(reading.confident(.fat, .perServing) == 2.4)
        #expect(reading.confident(.carbohydrate, .per100g) == 62)
        #expect(reading.confident(.sugars, .perServing) == 6.3)
        #expect(reading.confident(.protein, .per100g) == 10)
        #expect(reading.confident(.salt, .per100g) == 0.5)
        #expect(reading.confident(.salt, .perServing) == 0.15)
        #expect(reading.column(.perServing)?.servingGrams == 30)
        // The per-100 g row has no saturated fat: nothing is made up for it.
        #expect(reading.column(.per100g)?.values[.saturatedFat] == nil)
    }

    @Test("OCR look-alikes: O for 0, l for 1, 05g for 0.5 g, a g read as 9", arguments: [
        ("Og", 0.0, true), ("0,5g", 0.5, false), ("05g", 0.5, true), ("l2g", 12.0, true), ("<1g", 1.0, false), ("2,400mg", 2400.0, false),
        // A lone 1 read as a letter before its unit (a small US panel: "Protein ig").
        ("ig", 1.0, true), ("Ig", 1.0, true), ("lg", 1.0, true), ("Img", 1.0, true),
    ])
    func lookalikes(text: String, value: Double, guessed: Bool) throws {
        let words = labelRows([
            (0, [("Calories", 10), ("90", 120)]),
            (40, [("Total", 10), ("Fat", 75), ("10g", 150)]),
            (80, [(text.hasSuffix("mg") ? "Sodium" : "Sugars", 10), (text, 150)]),
        ])
        let field = try #require(LabelParser().read(words).column(.perServing)?.values[text.hasSuffix("mg") ? .sodium : .sugars])
        #expect(field.value == value)
        #expect(field.lessThan == text.hasPrefix("<"))
        if guessed { #expect(field.confidence < LabelFieldReading(value: 0, unit: .g, confidence: 0.87).confidence) }
    }

    @Test("a US panel's \"Protein ig\" is 1 g, filled with confidence once energy and the macros add up")
    func proteinOneReadAsLetter() throws {
        // 9 × 1.5 + 4 × 17 + 4 × 1 = 85.5 kcal for a printed 90: the energy check confirms the guessed 1.
        let words = labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Serving", 10), ("Size", 100), ("2", 160), ("cookies", 180), ("(22g)", 270)]),
            (80, [("Calories", 10), ("90", 140)]),
            (120, [("%", 300), ("Daily", 320), ("Value*", 380)]),
            (160, [("Total", 10), ("Fat", 75), ("1.5g", 120), ("2%", 400)]),
            (200, [("Sodium", 10), ("95mg", 95), ("4%", 400)]),
            (240, [("Total", 10), ("Carbohydrate", 75), ("17g", 220), ("6%", 400)]),
            (280, [("Sugars", 30), ("8g", 110)]),
            (320, [("Protein", 10), ("ig", 100)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.confident(.protein, .perServing) == 1)
        #expect(reading.confident(.energyKcal, .perServing) == 90)
        #expect(reading.confident(.carbohydrate, .perServing) == 17)
    }

    @Test("an EU %RI column confirms a value whose percentage of the EU reference rounds to the printed one, never by the US references")
    func euReferenceIntakes() {
        // Fat "7,9 g" read as "7,3g" (on a dev photo: "7,39", its g read as 9). 11 % of the EU's 70 g is 7.4–8.0 g:
        // 7.3 g (10.4 %) is not confirmed — the US reference of 65 g (7.3 g = 11.2 %) must not confirm it either.
        func panel(fat: String) -> [(Double, [(String, Double)])] {
            [
                (0, [("Valeurs", 10), ("nutritionnelles", 100), ("pour", 300), ("100g", 350)]),
                (40, [("Energie", 10), ("406kJ/98kcal", 300), ("5%", 460)]),
                (80, [("Matières", 10), ("grasses", 110), (fat, 300), ("11%", 460)]),
                (120, [("dont", 30), ("saturés", 80), ("5,6g", 300), ("28%", 460)]),
                (160, [("Protéines", 10), ("2,9g", 300), ("6%", 460)]),
            ]
        }
        let misread = LabelParser().read(labelRows(panel(fat: "7,3g")))
        #expect(misread.column(.per100g)?.values[.fat].map { $0.value } == 7.3)
        #expect(misread.confident(.fat, .per100g) == nil)
        // Protein 2.9 g is 5.8 % of 50 g (printed 6 %), saturates 5.6 g 28 % of 20 g: both confirmed.
        #expect(misread.confident(.protein, .per100g) == 2.9)
        #expect(misread.confident(.saturatedFat, .per100g) == 5.6)
        // Read right, 7.9 g is 11.3 % of 70 g: confirmed.
        let right = LabelParser().read(labelRows(panel(fat: "7,9g")))
        #expect(right.confident(.fat, .per100g) == 7.9)
    }

    @Test("a \"%\" a column away from a number is the next column's, and the number stays the field's value")
    func percentSignOfTheNextColumn() {
        // French yoghurt (dev photo off-gsoc18-3): the %RI column's digits are lost, only its "%" read, far to the
        // right of "3,89" (3,8 g with its g read as 9). Taken as that number's %, the carbohydrate was lost and with
        // it the energy check that confirms fat and protein: 9 × 7.9 + 4 × 3.8 + 4 × 2.9 = 97.9 kcal, printed 98.
        let words = labelRows([
            (0, [("Valeurs", 10), ("nutritionnelles", 100), ("pour", 300), ("100g", 350)]),
            (40, [("Energie", 10), ("406kJ/98kcal", 300), ("5%", 460)]),
            (80, [("Matières", 10), ("grasses", 110), ("7,99", 300)]),
            (120, [("Glucides", 10), ("3,89", 300), ("%", 460)]),
            (160, [("Protéines", 10), ("2.99", 300)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.confident(.carbohydrate, .per100g) == 3.8)
        #expect(reading.confident(.fat, .per100g) == 7.9)
        #expect(reading.confident(.protein, .per100g) == 2.9)
        #expect(reading.confident(.energyKcal, .per100g) == 98)
        // A "%" right beside its number is still that number's %RI, not a value: "5 %" of fat 3.5 g (70 g); and a
        // "g" set apart from its number (tables that align their units) is still its unit.
        let beside = LabelParser().read(labelRows([
            (0, [("Valeurs", 10), ("nutritionnelles", 100), ("pour", 300), ("100g", 350)]),
            (40, [("Energie", 10), ("406kJ/98kcal", 300)]),
            (80, [("Matières", 10), ("grasses", 110), ("3,5g", 300), ("5", 460), ("%", 475)]),
            (120, [("Glucides", 10), ("12", 300), ("g", 360)]),
        ]))
        #expect(beside.column(.per100g)?.values[.fat]?.value == 3.5)
        #expect(beside.confident(.fat, .per100g) == 3.5)
        #expect(beside.confident(.carbohydrate, .per100g) == 12)
    }

    @Test("\"Fat\" of a slanted \"Calories from Fat 15\" row belongs to that phrase, not to the fat field")
    func caloriesFromFatOnASlantedRow() {
        // US cereal (dev photo off-gsoc18-0016000483668): the row rises to the right, so its "Fat" stands higher
        // than its "Calories" and was found first as a name of its own; fat read 15 (the calories from fat).
        var words = labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Calories", 10), ("110", 300)]),
            (120, [("%", 300), ("Daily", 320), ("Value*", 380)]),
            (160, [("Total", 10), ("Fat", 75), ("1.5g", 150), ("2%", 300)]),
            (200, [("Total", 10), ("Carbohydrate", 75), ("22g", 250), ("7%", 300)]),
            (240, [("Protein", 10), ("2g", 150)]),
        ])
        for (text, x, y) in [("Calories", 30.0, 86.0), ("from", 130, 83), ("Fat", 185, 79), ("15", 300, 74)] {
            words.append(RecognizedWord(text: text, x: x, y: y, width: Double(text.count) * 11, height: 20, confidence: 0.95))
        }
        let reading = LabelParser().read(words)
        #expect(reading.confident(.fat, .perServing) == 1.5)  // 9 × 1.5 + 4 × 22 + 4 × 2 = 109.5 kcal, printed 110
        #expect(reading.confident(.energyKcal, .perServing) == 110)
        #expect(reading.column(.perServing)?.values[.fat]?.value != 15)
    }

    @Test("a one-word name inside the box of the name before it is part of that row's name: \"Polyunsaturated\" over \"Fat0.5g\"")
    func nameInsideTheBoxOfAnother() {
        // US cereal (dev photo off-gsoc18-0016000483668 in single-block mode): Total Fat's value unreadable, and
        // "Polyunsaturated" read 400 px wide over "Fat0.5g". Taken as the fat field, 0.5 g "added up" with 110 kcal
        // (9 × 0.5 + 4 × 22 + 4 × 2 = 100.5, within the 15 %) and was filled in with confidence: a wrong field.
        var words = labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Calories", 10), ("110", 300)]),
            (80, [("Total", 10), ("Fati.sg°", 75), ("2%", 300)]),
            (120, [("Saturated", 30), ("Fat", 140), ("0g", 185), ("0%", 300)]),
            (200, [("Total", 10), ("Carbohydrate", 75), ("22g", 250), ("7%", 300)]),
            (240, [("Protein", 10), ("2g", 150)]),
        ])
        words.append(RecognizedWord(text: "Polyunsaturated", x: 30, y: 160, width: 400, height: 20, confidence: 0.64))
        words.append(RecognizedWord(text: "Fat0.5g", x: 200, y: 158, width: 77, height: 20, confidence: 0.64))
        let reading = LabelParser().read(words)
        #expect(reading.column(.perServing)?.values[.fat] == nil)
        #expect(reading.confident(.carbohydrate, .perServing) == 22)
        // The same words side by side with a gap are two rows' names still: "Sugars 9g" and "Protein 2g" on one row.
        let sideBySide = LabelParser().read(labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Sugars", 10), ("9g", 90), ("Protein", 200), ("2g", 290)]),
        ]))
        #expect(sideBySide.column(.perServing)?.values[.protein]?.value == 2)
    }

    @Test("a macro's grams with three decimals are not a value (\"0,125\" is a serving's 125 g), salt's are")
    func threeDecimalMacro() {
        // Before: protein 0.125 g "added up" (9 × 4.9 + 4 × 40 + 4 × 0.125 = 204.6 kcal against 239, within 15 %)
        // and was filled in with confidence.
        let reading = LabelParser().read(labelRows([
            (0, [("Valeurs", 10), ("nutritionnelles", 100), ("pour", 300), ("100g", 350)]),
            (40, [("Energie", 10), ("1000kJ/239kcal", 300)]),
            (80, [("Matières", 10), ("grasses", 110), ("4,9g", 300)]),
            (120, [("Glucides", 10), ("40g", 300)]),
            (160, [("Protéines", 10), ("0,125g", 300)]),
            (200, [("Sel", 10), ("0,015g", 300)]),
        ]))
        #expect(reading.column(.per100g)?.values[.protein] == nil)
        #expect(reading.confident(.salt, .per100g) == 0.015)
        #expect(reading.confident(.fat, .per100g) == 4.9)
    }

    @Test("a part whose only reading under its confirmed whole is its g read as 9 is filled; with two readings that fit, not")
    func partDecidedByItsWhole() {
        // US side-by-side panel (dev photo off-gsoc18-0605388186881): "Sugars 19" under "Total Carbohydrate 1g", the
        // energy confirming the carbohydrate (9 × 16 + 4 × 1 + 4 × 7 = 176 kcal, printed 180). 19 g and 1.9 g cannot
        // be sugars of 1 g of carbohydrate: 1 g is.
        func panel(carbohydrate: String, sugars: String) -> [(Double, [(String, Double)])] {
            [
                (0, [("Nutrition", 10), ("Facts", 130)]),
                (40, [("Calories", 10), ("180", 150)]),
                (80, [("Total", 10), ("Fat", 75), ("16g", 150)]),
                (120, [("Total", 10), ("Carbohydrate", 75), (carbohydrate, 250)]),
                (160, [("Sugars", 30), (sugars, 150)]),
                (200, [("Protein", 10), ("7g", 150)]),
            ]
        }
        let forced = LabelParser().read(labelRows(panel(carbohydrate: "1g", sugars: "19")))
        #expect(forced.confident(.carbohydrate, .perServing) == 1)
        #expect(forced.confident(.sugars, .perServing) == 1)
        // Under 6 g both 5 g and 5.9 g fit "59": the whole does not decide, the field stays below the bar.
        let open = LabelParser().read(labelRows(panel(carbohydrate: "6g", sugars: "59")))
        #expect(open.confident(.carbohydrate, .perServing) == 6)
        #expect(open.column(.perServing)?.values[.sugars]?.value == 5)
        #expect(open.confident(.sugars, .perServing) == nil)
    }

    @Test("energy that does not add up with the macros is left empty, not guessed")
    func atwaterFails() {
        let words = labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Calories", 10), ("250", 120)]),
            (80, [("Total", 10), ("Fat", 75), ("2g", 150)]),
            (120, [("Total", 10), ("Carbohydrate", 75), ("8g", 250)]),
            (160, [("Protein", 10), ("3g", 150)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.column(.perServing)?.values[.energyKcal]?.value == 250)
        #expect(reading.confident(.energyKcal, .perServing) == nil)
        #expect(reading.confident(.fat, .perServing) == nil)
        #expect(reading.confidence < LabelConfidence.threshold)
    }

    @Test("a lost decimal comma is restored only where the per-serving column agrees through the serving grams")
    func lostDecimal() {
        let words = labelRows([
            (0, [("Valeurs", 10), ("pour", 200), ("100", 245), ("g", 285), ("pour", 350), ("1", 400), ("pot", 415), ("de", 460), ("125", 490), ("g", 530)]),
            (40, [("Energie", 10), ("430", 200), ("kJ", 240), ("535", 350), ("kJ", 390)]),
            (70, [("102", 200), ("kcal", 240), ("127", 350), ("kcal", 395)]),
            (110, [("Matières", 10), ("grasses", 105), ("3,9", 200), ("g", 240), ("49", 350), ("g", 380)]),
            (150, [("Glucides", 10), ("13", 200), ("g", 230), ("16", 350), ("g", 380)]),
            (190, [("Protéines", 10), ("3,8", 200), ("g", 240), ("4,8", 350), ("g", 390)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.confident(.fat, .perServing) == 4.9)
        #expect(reading.confident(.fat, .per100g) == 3.9)
        #expect(reading.confident(.energyKcal, .perServing) == 127)
        #expect(reading.column(.perServing)?.servingGrams == 125)
    }

    @Test("a number changed only to make the energy add up is not filled in")
    func atwaterAlternativeNotConfirmed() {
        // The panel prints carbohydrate 1g; OCR read "19g". 1.9 g (a lost decimal point) would make 180 kcal add
        // up, but so would 1 g: the field stays empty while the others are confirmed.
        let words = labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Calories", 10), ("180", 120)]),
            (80, [("Total", 10), ("Fat", 75), ("16g", 150)]),
            (120, [("Total", 10), ("Carbohydrate", 75), ("19g", 250)]),
            (160, [("Protein", 10), ("7g", 150)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.confident(.carbohydrate, .perServing) == nil)
        #expect(reading.confident(.fat, .perServing) == 16)
        #expect(reading.confident(.protein, .perServing) == 7)
        #expect(reading.confident(.energyKcal, .perServing) == 180)
    }

    @Test("running text: a number right before a name is that name's, not the previous one's")
    func linearText() {
        let words = labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Calories", 10), ("150", 120)]),
            // "…provides 1.5g total fat, 220mg sodium, 320mg potassium" (11 px a letter, a space of 5 px)
            (80, [("provides", 10), ("1.5g", 103), ("total", 152), ("fat,", 213), ("220mg", 262), ("sodium,", 322), ("320mg", 405), ("potassium", 465)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.column(.perServing)?.values[.fat] == nil)  // not 220
        #expect(reading.column(.perServing)?.values[.sodium] == nil)  // not 320
    }

    @Test("side by side: Total Fat 16g 25% Sodium 790mg 33% (a table's gap, not running text)")
    func sideBySide() {
        let words = labelRows([
            (0, [("Nutrition", 10), ("Facts", 130)]),
            (40, [("Calories", 10), ("180", 120), ("Calories", 200), ("from", 300), ("Fat", 355), ("140", 400)]),
            (80, [("Total", 10), ("Fat", 75), ("16g", 120), ("25%", 170), ("Sodium", 240), ("790mg", 320), ("33%", 390)]),
            (120, [("Sat.", 10), ("Fat", 60), ("6g", 105), ("30%", 170), ("Total", 240), ("Carb.", 300), ("1g", 365), ("0%", 390)]),
            (160, [("Protein", 240), ("7g", 330)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.column(.perServing)?.values[.fat]?.value == 16)
        #expect(reading.column(.perServing)?.values[.sodium]?.value == 790)
        #expect(reading.column(.perServing)?.values[.carbohydrate]?.value == 1)
        #expect(reading.confident(.fat, .perServing) == 16)  // 16 g is 25 % of 65 g, and 9 × 16 + 4 × 1 + 4 × 7 = 176
        #expect(reading.confident(.energyKcal, .perServing) == 180)
    }

    @Test("merged tokens: kJ and kcal in one word, a name and its value in one word")
    func mergedTokens() {
        let words = labelRows([
            (0, [("Nutrition", 10), ("information", 120), ("per", 260), ("100g", 300)]),
            (40, [("Energy", 10), ("1580kJ/376kcal", 200)]),
            (80, [("Fat8.0g", 10)]),
            (120, [("Carbohydrate", 10), ("62g", 200)]),
            (160, [("Protein", 10), ("10g", 200)]),
        ])
        let reading = LabelParser().read(words)
        #expect(reading.confident(.energyKJ, .per100g) == 1580)
        #expect(reading.confident(.energyKcal, .per100g) == 376)
        #expect(reading.confident(.fat, .per100g) == 8)  // 9 × 8 + 4 × 62 + 4 × 10 = 360 ≈ 376
        #expect(reading.column(.perServing) == nil)
    }

    @Test("no nutrient names: no panel")
    func noPanel() {
        let reading = LabelParser().read(labelRows([(0, [("Store", 10), ("in", 70), ("a", 95), ("cool", 110), ("place", 160)])]))
        #expect(!reading.panelFound)
        #expect(reading.columns.isEmpty)
    }
}

/// The parser on what Tesseract really read from dev photos (LabelOCRFixtures): values checked against the hand-read
/// truth in labels.json; a field the parser is sure of is never wrong.
@Suite("Label parser on dev-photo OCR")
struct LabelParserOCRTests {
    typealias Truth = [LabelNutrient: Double]

    static func expectNoConfidentWrong(_ reading: LabelReading, _ truth: [LabelBasis: Truth]) {
        for column in reading.columns {
            for (nutrient, field) in column.values where field.isConfident {
                let expected = truth[column.basis]?[nutrient]
                #expect(expected != nil, "confident \(nutrient) \(field.value) in \(column.basis), which the label does not print")
                if let expected { #expect(abs(field.value - expected) <= max(0.05, expected * 0.02), "\(nutrient) \(column.basis)") }
            }
        }
    }

    @Test("FDA sample label (US, pre-2016): every field, per serving of 228 g")
    func fdaSample() {
        let reading = LabelParser().read(LabelOCRFixtures.fdaSample)
        let truth: Truth = [.energyKcal: 250, .fat: 12, .saturatedFat: 3, .carbohydrate: 31, .fiber: 0, .sugars: 5, .protein: 5, .sodium: 470]
        for (nutrient, value) in truth { #expect(reading.confident(nutrient, .perServing) == value, "\(nutrient)") }
        #expect(reading.column(.perServing)?.servingGrams == 228)
        Self.expectNoConfidentWrong(reading, [.perServing: truth])
    }

    @Test("US chips panel with the serving line folded away: less-than fields, no serving grams")
    func usChips() throws {
        let reading = LabelParser().read(LabelOCRFixtures.usChips)
        #expect(reading.confident(.energyKcal, .perServing) == 140)
        #expect(reading.confident(.fat, .perServing) == 5)
        #expect(reading.confident(.carbohydrate, .perServing) == 19)
        #expect(reading.confident(.protein, .perServing) == 4)
        let sugars = try #require(reading.column(.perServing)?.values[.sugars])
        #expect(sugars.lessThan && sugars.value == 1)
        #expect(reading.column(.perServing)?.servingGrams == nil)
        Self.expectNoConfidentWrong(reading, [.perServing: [
            .energyKcal: 140, .fat: 5, .saturatedFat: 1, .sodium: 270, .carbohydrate: 19, .fiber: 1, .sugars: 1, .protein: 4,
        ]])
    }

    @Test("French yoghurt (per pot of 125 g / per 100 g): decimals and g's misread as 9 are recovered only where the columns agree")
    func frenchYoghurt() {
        let reading = LabelParser().read(LabelOCRFixtures.frenchYoghurt)
        #expect(reading.column(.perServing)?.servingGrams == 125)
        #expect(reading.confident(.energyKcal, .perServing) == 127)
        #expect(reading.confident(.energyKJ, .per100g) == 430)
        #expect(reading.confident(.fat, .perServing) == 4.9)  // OCR read "49"
        #expect(reading.confident(.fat, .per100g) == 3.9)  // OCR read "3,99"
        Self.expectNoConfidentWrong(reading, [
            .perServing: [.energyKJ: 535, .energyKcal: 127, .fat: 4.9, .saturatedFat: 2.8, .carbohydrate: 16, .sugars: 14, .protein: 4.8, .salt: 0.15],
            .per100g: [.energyKJ: 430, .energyKcal: 102, .fat: 3.9, .saturatedFat: 2.2, .carbohydrate: 13, .sugars: 11, .protein: 3.8, .salt: 0.12],
        ])
    }

    @Test("Indian snack (per 100 g, energy row without its name)")
    func indianNamkeen() {
        let reading = LabelParser().read(LabelOCRFixtures.indianNamkeen)
        #expect(reading.confident(.energyKcal, .per100g) == 580.8)
        #expect(reading.confident(.protein, .per100g) == 13.9)  // OCR read "13.99"
        #expect(reading.confident(.fat, .per100g) == 40.8)
        Self.expectNoConfidentWrong(reading, [.per100g: [
            .energyKcal: 580.8, .protein: 13.9, .carbohydrate: 39.5, .sugars: 3.9, .fat: 40.8, .saturatedFat: 10.4,
        ]])
    }
}

@Suite("Label parser on noise")
struct LabelParserNoiseTests {
    /// A fixed pseudo-random sequence (SplitMix64), so that a failure repeats.
    struct Noise {
        var random: SeededRandom
        init(state: UInt64) { random = SeededRandom(seed: state) }
        mutating func next() -> UInt64 { random.next() }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
        mutating func number(_ limit: Double) -> Double { Double(next() % 1_000_000) / 1_000_000 * limit }
    }

    @Test("OCR garbage (names, numbers, units and junk at random places) never crashes; values finite, confidences within 0…1")
    func noise() {
        var noise = Noise(state: 19)
        let pieces = ["Fat", "Protein", "Energy", "kcal", "kJ", "12g", "0,5", "<1g", "Og", "l9", "100g", "per", "serving",
                      "Sugars", "Salt", "%", "8%", "2,000", "—", "", "(", "9", "Calories", "Total", "Carbohydrate", "1009", "..."]
        for _ in 0..<300 {
            let words = (0..<Int(noise.next() % 40)).map { _ in
                RecognizedWord(
                    text: noise.pick(pieces), x: noise.number(800), y: noise.number(800),
                    width: noise.number(120), height: noise.number(30), confidence: noise.number(1)
                )
            }
            let reading = LabelParser().read(words)
            for column in reading.columns {
                for field in column.values.values {
                    #expect(field.value.isFinite && field.value >= 0)
                    #expect(field.confidence >= 0 && field.confidence <= 1)
                }
            }
            #expect(reading.confidence >= 0 && reading.confidence <= 1)
        }
    }
}
