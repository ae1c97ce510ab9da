import Testing
import WDietCore

@Suite("Units")
struct UnitsTests {
    @Test("kg → lb → kg returns the same tenth", arguments: [
        (82.5, 181.9), (100.0, 220.5), (20.0, 44.1), (500.0, 1102.3), (69.1, 152.3), (45.3, 99.9),
    ])
    func kilogramsRoundTrip(kg: Double, lb: Double) {
        #expect(Units.pounds(fromKilograms: kg) == lb)
        #expect(Units.kilograms(fromPounds: lb) == kg)
    }

    @Test("every weight from 20.0 to 500.0 kg survives a trip through pounds")
    func everyKilogramTenthRoundTrips() {
        var failures: [Double] = []
        for tenths in 200...5_000 {
            let kg = Double(tenths) / 10
            if Units.kilograms(fromPounds: Units.pounds(fromKilograms: kg)) != kg { failures.append(kg) }
        }
        #expect(failures.isEmpty)
    }

    @Test("every height in inches to a tenth survives a trip through centimetres")
    func everyInchTenthRoundTrips() {
        var failures: [Double] = []
        for tenths in 200...1_180 {
            let inches = Double(tenths) / 10
            let cm = Units.centimetres(feet: 0, inches: inches)
            let back = Units.feetAndInches(fromCentimetres: cm)
            if Units.tenth(Double(back.feet) * 12 + back.inches) != inches { failures.append(inches) }
        }
        #expect(failures.isEmpty)
    }

    @Test("cm → ft+in with inches to a tenth", arguments: [
        (175.0, 5, 8.9), (180.0, 5, 10.9), (152.4, 5, 0.0), (50.0, 1, 7.7), (300.0, 9, 10.1),
    ])
    func feetAndInches(cm: Double, feet: Int, inches: Double) {
        let result = Units.feetAndInches(fromCentimetres: cm)
        #expect(result.feet == feet)
        #expect(result.inches == inches)
    }

    @Test("a tenth of an inch is 0.254 cm, so a whole-cm height comes back within 0.1 cm")
    func wholeCentimetresComeBackClose() {
        let (feet, inches) = Units.feetAndInches(fromCentimetres: 180)
        #expect(Units.centimetres(feet: feet, inches: inches) == 180.1)
        for cm in 50...300 {
            let (f, i) = Units.feetAndInches(fromCentimetres: Double(cm))
            #expect(abs(Units.centimetres(feet: f, inches: i) - Double(cm)) <= 0.1 + 1e-9)
        }
    }

    @Test("display strings", arguments: [
        (69.1, WeightUnit.kg, "69.1 kg"), (69.1, .lb, "152.3 lb"), (80, .kg, "80.0 kg"),
    ])
    func weightFormatting(kg: Double, unit: WeightUnit, text: String) {
        #expect(Units.format(kg: kg, in: unit) == text)
    }

    @Test func heightFormatting() {
        #expect(Units.format(cm: 175, in: .cm) == "175 cm")
        #expect(Units.format(cm: 175, in: .ftIn) == "5'9\"")
        #expect(Units.format(cm: 265, in: .ftIn) == "8'8\"")
        #expect(Units.format(cm: 172.5, in: .cm) == "172.5 cm")
    }
}
