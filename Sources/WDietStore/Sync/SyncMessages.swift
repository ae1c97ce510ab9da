import WDietCore

/// What a push result tells the person, the same on every backend, in the language of the work in progress
/// (`Strings.current`; a store's own queue has none, so English, and the server answers it in the reader's).
public enum SyncMessages {
    public static func lostEdit(_ entity: SyncEntity, deleted: Bool) -> String {
        deleted ? Strings.current("sync.deletedElsewhere\(name(entity))") : Strings.current("sync.lostEdit\(name(entity))")
    }

    public static func lostDelete(_ entity: SyncEntity) -> String {
        Strings.current("sync.lostDelete\(name(entity))")
    }

    public static func ignoredDelete(deleted: Bool) -> String {
        deleted ? Strings.current("sync.alreadyDeleted") : Strings.current("sync.notOnServer")
    }

    /// "meal", "weight entry": how a message names a row of the entity.
    static func noun(_ entity: SyncEntity) -> String {
        Strings.current("sync.noun\(name(entity))")
    }

    /// The entity's part of its catalog keys (`sync.lostEditMeal`, `sync.nounWeight`).
    static func name(_ entity: SyncEntity) -> String {
        switch entity {
        case .meal: "Meal"
        case .weight: "Weight"
        case .profile: "Profile"
        case .event: "Event"
        case .row: "Row"
        case .tip: "Tip"
        }
    }
}
