import Foundation
import Hummingbird
import WDietCore
import WDietStore

extension ChallengePages {
    func registerLog(on group: RouterGroup<WebUserContext>) {}
}
