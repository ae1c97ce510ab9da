import Foundation
import Hummingbird
import WDietCore
import WDietStore

extension ChallengePages {
    func registerSettings(on group: RouterGroup<WebUserContext>) {}
}
