extension LocalDate {
    /// 0 for Monday ... 6 for Sunday (ISO 8601). 1970-01-01 was a Thursday.
    var weekdayIndex: Int { (daysSinceEpoch + 3).mod(7) }

    /// "Mon 23 Nov": the short English form the coach's messages use for a nearby day.
    public var shortLabel: String {
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[weekdayIndex]) \(day) \(months[month - 1])"
    }
}
