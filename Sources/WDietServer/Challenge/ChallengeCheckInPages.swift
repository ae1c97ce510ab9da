import Foundation
import Hummingbird
import WDietCore
import WDietStore

extension ChallengePages {
    func registerCheckIn(on group: RouterGroup<WebUserContext>) {}
}
