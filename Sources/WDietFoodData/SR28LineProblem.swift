/// What is wrong with one line of an SR28 file.
public enum SR28LineProblem: Hashable, Sendable, CustomStringConvertible {
    case fieldCount(expected: Int, found: Int)
    /// A `~`-wrapped text field whose closing `~` is missing (or is followed by something other than `^`).
    case unterminatedText(field: String)
    case badNumber(field: String, text: String)
    case missingValue(field: String)
    case unknownFood(String)
    case unknownNutrient(String)
    case unknownFoodGroup(String)
    case duplicate(String)

    public var description: String {
        switch self {
        case .fieldCount(let expected, let found): "expected \(expected) fields separated by ^, found \(found)"
        case .unterminatedText(let field): "text field \(field) has no closing ~"
        case .badNumber(let field, let text): "\(field) is not a number: \"\(text)\""
        case .missingValue(let field): "\(field) is empty"
        case .unknownFood(let id): "refers to food \(id), which FOOD_DES.txt does not define"
        case .unknownNutrient(let number): "refers to nutrient \(number), which NUTR_DEF.txt does not define"
        case .unknownFoodGroup(let code): "refers to food group \(code), which FD_GROUP.txt does not define"
        case .duplicate(let key): "\(key) appears twice"
        }
    }
}
