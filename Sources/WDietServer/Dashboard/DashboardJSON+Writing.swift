import Hummingbird
import WDietCore
import WDietStore

/// The dashboard written by `JSONWriter` (every app start and every return to Home asks for it). Keys in sorted
/// order, as `APICoding.encoder` writes them; nil members left out.
extension DashboardJSON {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: jsonBytes())))
    }

    func jsonBytes() -> [UInt8] {
        var json = JSONWriter(capacity: 2_048)
        json.object { json in
            if let cycle {
                json.key("cycle")
                json.object { json in
                    json.member("cycle", cycle.cycle)
                    json.member("dayOfPhase", cycle.dayOfPhase)
                    json.member("dayOfPlan", cycle.dayOfPlan)
                    json.member("nextSwitch", cycle.nextSwitch.iso)
                    json.member("phase", cycle.phase.rawValue)
                }
            }
            json.member("date", date.iso)
            json.key("eatingWindow")
            json.object { json in
                json.member("end", eatingWindow.end)
                json.member("placementNow", ifPresent: eatingWindow.placementNow?.rawValue)
                json.member("start", eatingWindow.start)
            }
            json.key("fireCoach")
            json.object { json in
                json.member("emoji", fireCoach.emoji)
                json.member("variant", fireCoach.variant)
            }
            json.key("macros")
            json.array(macros) { json, macro in
                json.object { json in
                    json.member("fraction", macro.fraction)
                    json.member("goal", macro.goal)
                    json.member("grams", macro.grams)
                    json.member("macro", macro.macro.rawValue)
                    json.member("smiley", ifPresent: macro.smiley)
                }
            }
            json.member("phaseLabel", ifPresent: phaseLabel)
            json.member("planUpdatesOn", ifPresent: planUpdatesOn?.iso)
            json.key("ring")
            json.object { json in
                json.key("arcs")
                json.array(ring.arcs) { json, arc in
                    json.object { json in
                        json.member("end", arc.end)
                        json.member("segment", arc.segment.rawValue)
                        json.member("start", arc.start)
                    }
                }
                json.member("carbsKcal", ring.carbsKcal)
                json.member("fatKcal", ring.fatKcal)
                json.member("proteinKcal", ring.proteinKcal)
                json.member("targetKcal", ring.targetKcal)
                json.member("totalKcal", ring.totalKcal)
                json.member("unspecifiedKcal", ring.unspecifiedKcal)
            }
            json.member("showsWeightPrompt", showsWeightPrompt)
            json.key("streak")
            json.object { json in
                json.member("activeToday", streak.activeToday)
                json.member("days", streak.days)
                json.member("milestone", ifPresent: streak.milestone)
            }
            json.key("targets")
            json.object { json in
                json.member("bmr", targets.bmr)
                json.member("calories", targets.calories)
                json.member("carbs", targets.carbs)
                json.member("fat", targets.fat)
                json.member("floorApplied", targets.floorApplied)
                json.member("protein", targets.protein)
                json.member("tdee", targets.tdee)
                json.member("underageMaintenance", targets.underageMaintenance)
                json.member("water", targets.water)
            }
            json.key("totals")
            totals.write(into: &json)
            json.key("weightCard")
            json.object { json in
                json.member("averageKg", ifPresent: weightCard.averageKg)
                json.member("belowAverageKg", ifPresent: weightCard.belowAverageKg)
                json.member("todayKg", ifPresent: weightCard.todayKg)
                json.member("trend", ifPresent: weightCard.trend)
            }
        }
        return json.bytes
    }
}

extension TotalsJSON {
    func write(into json: inout JSONWriter) {
        json.object { json in
            json.member("calories", calories)
            json.member("carbs", carbs)
            json.member("fat", fat)
            json.member("fiber", fiber)
            json.member("mealCount", mealCount)
            json.member("protein", protein)
        }
    }
}

/// A saved meal written by `JSONWriter` (the answer to every meal save).
extension MealJSON {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: jsonBytes())))
    }

    func jsonBytes() -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        json.object { json in
            json.member("calories", calories)
            json.member("carbs", ifPresent: carbs)
            json.member("createdAt", WireFormat.instantText(createdAt))
            json.member("fat", ifPresent: fat)
            json.member("fiber", ifPresent: fiber)
            json.member("foodId", ifPresent: foodId)
            json.member("grams", ifPresent: grams)
            json.member("id", id)
            json.member("localDate", localDate.iso)
            json.member("loggedAt", WireFormat.instantText(loggedAt))
            json.member("name", name)
            json.member("protein", ifPresent: protein)
            json.member("slot", slot.rawValue)
            json.member("source", source.rawValue)
            json.member("updatedAt", WireFormat.instantText(updatedAt))
            json.member("version", version)
            json.member("warning", ifPresent: warning)
            json.member("window", window.rawValue)
        }
        return json.bytes
    }
}
