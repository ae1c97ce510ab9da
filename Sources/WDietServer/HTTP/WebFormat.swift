/// Numbers as the pages write them, whatever the server's locale.
enum WebFormat {
    /// 1250.4 → "1,250": whole calories with a thousands separator.
    static func grouped(_ value: Double) -> String {
        let number = Int(value.rounded())
        let digits = String(abs(number))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return number < 0 ? "-" + result : result
    }
}
