/// One of USDA's 25 food groups (FD_GROUP.txt), e.g. "0500" "Poultry Products".
public struct FoodGroup: Hashable, Sendable, Codable, Identifiable {
    public var code: String
    public var description: String

    public var id: String { code }

    public init(code: String, description: String) {
        self.code = code
        self.description = description
    }
}
