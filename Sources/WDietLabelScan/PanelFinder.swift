import Foundation
import WDietCore

/// Finds the nutrition panel in a whole photo from a first, coarse OCR pass: the words that name nutrients or their
/// units ("Fat", "Eiweiß", "kcal", "100g"…) gather where the panel is; the densest gathering, widened to take in the
/// values to the right of the names and the headers above them, is the panel.
enum PanelFinder {
    struct Panel: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        /// The median height of the anchor words, in the photo's pixels.
        var textHeight: Double
    }

    static let anchorWords: Set<String> = [
        "nutrition", "facts", "calories", "energy", "energie", "brennwert", "fat", "total", "saturated", "saturates", "fett",
        "carbohydrate", "carbohydrates", "kohlenhydrate", "sugars", "zucker", "protein", "eiweiss", "sodium", "salt", "salz",
        "fibre", "fiber", "ballaststoffe", "kcal", "kj", "glucides", "lipides", "proteines", "sucres", "sel", "grasas",
        "proteinas", "hidratos", "azucares", "serving", "cholesterol", "daily", "value", "typical", "values", "matieres",
        "grasses", "satures", "acides", "gras", "energetique", "valeur", "valeurs", "nutritional", "information", "dietary",
        "trans", "amount", "per", "pour", "davon", "gesattigte", "fettsauren", "portion", "salt", "carb", "sugar", "proteins",
    ]

    static func isAnchor(_ word: RecognizedWord) -> Bool {
        let normalised = LabelVocabulary.normalise(word.text)
        guard normalised.count >= 2 else { return false }
        if anchorWords.contains(normalised) { return true }
        if normalised.count >= 6 { return anchorWords.contains { $0.count >= 6 && LabelVocabulary.distance(normalised, $0) != nil } }
        return false
    }

    static func panel(in words: [RecognizedWord], imageWidth: Int, imageHeight: Int) -> Panel? {
        let anchors = words.filter { isAnchor($0) && $0.confidence > 0.3 }
        guard anchors.count >= 3 else { return nil }
        let heights = anchors.map(\.height).sorted()
        let height = heights[heights.count / 2]
        // The anchor with the most anchors near it (a window of 30 text heights), and those anchors.
        let window = height * 30
        func near(_ a: RecognizedWord, _ b: RecognizedWord) -> Bool {
            abs(a.midX - b.midX) < window && abs(a.midY - b.midY) < window
        }
        guard let centre = anchors.max(by: { a, b in anchors.count { near(a, $0) } < anchors.count { near(b, $0) } }) else { return nil }
        var group = anchors.filter { near(centre, $0) }
        guard group.count >= 3 else { return nil }
        // Grow: anchors near the group's members (a long panel exceeds one window).
        var changed = true
        while changed {
            changed = false
            for anchor in anchors where !group.contains(anchor) && group.contains(where: { abs($0.midX - anchor.midX) < height * 15 && abs($0.midY - anchor.midY) < height * 8 }) {
                group.append(anchor)
                changed = true
            }
        }
        let minX = group.map(\.x).min()!, maxX = group.map(\.maxX).max()!
        let minY = group.map(\.y).min()!, maxY = group.map(\.maxY).max()!
        let groupHeights = group.map(\.height).sorted()
        let textHeight = groupHeights[groupHeights.count / 2]
        // Values sit to the right of the names, headers above them.
        let left = max(0, minX - textHeight * 3)
        let right = min(Double(imageWidth), maxX + max(maxX - minX, textHeight * 12) * 1.0 + textHeight * 4)
        let top = max(0, minY - textHeight * 5)
        let bottom = min(Double(imageHeight), maxY + textHeight * 4)
        guard right - left > textHeight * 4, bottom - top > textHeight * 3 else { return nil }
        return Panel(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top), textHeight: textHeight)
    }
}
