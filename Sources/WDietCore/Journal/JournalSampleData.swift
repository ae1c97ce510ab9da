import Foundation

/// 002's deterministic sample data (`SampleDataService`): 120 days of realistic entries — Indian and South Indian
/// dishes among them — for trying the Journal's calendar, search and insights. Every `rawInput` starts with
/// `[SAMPLE]` (`JournalEntry.isSample`), so "Remove sample data" deletes exactly these and nothing the person wrote.
///
/// Pure: the same `today` gives the same entries (a fixed-seed generator, no clock). The days are the 120 before
/// `today` (none today, so no entry is ever later than the moment it is added); about 85 % of them have 1–3
/// entries. Ids are fixed per position (`sampleId(_:)`), so adding twice adds nothing twice and a store can tell a
/// removed sample (its tombstone) from a new one.
public enum JournalSampleData {
    public static let days = 120
    public static let seed: UInt64 = 0x2002_F00D

    /// The `index`-th sample entry's id: `5A3E0000-0000-4000-8000-` and the index in 12 hex digits.
    public static func sampleId(_ index: Int) -> UUID {
        let hex = String(index, radix: 16, uppercase: true)
        return UUID(uuidString: "5A3E0000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
    }

    /// The entries, oldest first. `now` caps `createdAt` (an entry is never written after it was added).
    public static func entries(today: LocalDate, now: Date) -> [JournalEntry] {
        var random = Generator(seed: seed)
        var result: [JournalEntry] = []
        for offset in stride(from: days, through: 1, by: -1) {
            let date = today.adding(days: -offset)
            guard random.next(100) < 85 else { continue }
            let count = 1 + random.next(3)
            // Distinct meal moments of the day, in order.
            var moments = Array(Moment.allCases)
            var chosen: [Moment] = []
            for _ in 0..<count {
                chosen.append(moments.remove(at: random.next(moments.count)))
            }
            for moment in chosen.sorted(by: { $0.rawValue < $1.rawValue }) {
                let foods = moment.foods
                let food = foods[random.next(foods.count)]
                let time = JournalTime(hour: moment.hours.lowerBound + random.next(moment.hours.count), minute: random.next(4) * 15)!
                let roll = random.next(100)
                let inputType: JournalInputType = roll < 70 ? .text : roll < 88 ? .voice : .photo
                let raw: String
                switch inputType {
                case .text: raw = food
                case .voice: raw = "um I had " + food.lowercased() // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                case .photo: raw = "photo"
                }
                let eaten = JournalTime.instant(date, time, in: TimeZone(identifier: "UTC")!)
                let created = min(eaten.addingTimeInterval(TimeInterval(5 * 60)), now)
                result.append(JournalEntry(
                    id: sampleId(result.count), date: date, time: time, inputType: inputType,
                    rawInput: JournalEntry.sampleMarker + " " + raw, processedDescription: food,
                    category: JournalCategoryDetector.detect(hour: time.hour, description: food),
                    createdAt: created))
            }
        }
        return result
    }

    /// The moments of a sample day, each with its hours and foods (002's variety: 35+ foods, all six categories).
    enum Moment: Int, CaseIterable {
        case breakfast, lunch, snack, dinner, dessert

        var hours: Range<Int> {
            switch self {
            case .breakfast: 7..<10
            case .lunch: 12..<14
            case .snack: 15..<17
            case .dinner: 18..<21
            case .dessert: 21..<22
            }
        }

        var foods: [String] {
            switch self {
            case .breakfast:
                ["Idli and sambar", "Masala dosa with coconut chutney", "Oatmeal with banana", "Poha with peanuts", // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                 "Scrambled eggs on toast", "Upma and filter coffee", "Greek yogurt with berries", "Aloo paratha with curd", // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                 "Pancakes with maple syrup", "Pesarattu with ginger chutney"] // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
            case .lunch:
                ["Chicken biryani with raita", "Dal tadka, rice and salad", "Rajma chawal", "Turkey sandwich and soup", // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                 "Caesar salad with chicken", "Sambar rice and papad", "Chole bhature", "Veg thali", // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                 "Lemon rice and curd rice", "Quinoa bowl with avocado"] // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
            case .snack:
                ["Samosa and masala chai", "Apple with peanut butter", "Handful of almonds", "Murukku and coffee", // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                 "Banana", "Hummus with carrots", "Mango lassi", "Green tea and biscuits"] // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
            case .dinner:
                ["Paneer tikka masala with naan", "Grilled salmon with vegetables", "Pasta with tomato sauce", // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                 "Chapati with palak paneer", "Vegetable stir fry with tofu", "Fish curry and rice", // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
                 "Chicken curry with jeera rice", "Bisi bele bath", "Lentil soup and bread", "Pizza margherita"] // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
            case .dessert:
                ["Gulab jamun", "Kheer", "Dark chocolate", "Ice cream", "Payasam", "Apple pie", "Rasmalai"] // catalog-exempt: sample entries are what a person wrote (002's sample data), not the app's copy
            }
        }
    }

    /// 002's `SeededRNG`: a 64-bit linear congruential generator (Knuth's MMIX constants).
    struct Generator {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        /// A number in `0..<bound`.
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }
}
