/// What a push result tells the person, the same on every backend.
public enum SyncMessages {
    public static func lostEdit(_ entity: SyncEntity, deleted: Bool) -> String {
        deleted
            ? "This \(noun(entity)) was deleted on another device; your change was not applied"
            : "This \(noun(entity)) was changed on another device; the other change was kept"
    }

    public static func lostDelete(_ entity: SyncEntity) -> String {
        "This \(noun(entity)) was changed on another device after you deleted it; it was kept"
    }

    public static func ignoredDelete(deleted: Bool) -> String {
        deleted ? "Already deleted" : "Not on the server: nothing to delete"
    }

    static func noun(_ entity: SyncEntity) -> String {
        switch entity {
        case .meal: "meal"
        case .weight: "weight entry"
        case .profile: "profile"
        case .event: "event"
        case .row: "entry"
        case .tip: "tip"
        }
    }
}
