extension LocalDate {
    /// 0 for Monday ... 6 for Sunday (ISO 8601). 1970-01-01 was a Thursday.
    var weekdayIndex: Int { (daysSinceEpoch + 3).mod(7) }

    /// "Mon 23 Nov" ("Mo., 23. Nov."): the short form the coach's messages use for a nearby day, in the
    /// current language.
    public var shortLabel: String { Strings.current.date(self, .weekdayDayMonth) }
}
