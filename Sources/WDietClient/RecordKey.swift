import Foundation
import WDietStore

/// Which row of the user's data a local record, outbox entry or notice is about: (entity, collection, id) as the
/// protocol names rows. The profile, of which there is one, has the fixed id `profile`.
public struct RecordKey: Hashable, Sendable, CustomStringConvertible {
    public var entity: SyncEntity
    /// A generic row's collection; empty for everything else.
    public var collection: String
    /// The row's UUID in lowercase (the server's spelling), or `profile`.
    public var id: String

    public init(entity: SyncEntity, collection: String = "", id: String) {
        self.entity = entity
        self.collection = collection
        self.id = id
    }

    public init(entity: SyncEntity, collection: String? = nil, uuid: UUID) {
        self.init(entity: entity, collection: collection ?? "", id: uuid.uuidString.lowercased())
    }

    public static let profile = RecordKey(entity: .profile, id: "profile")

    public var uuid: UUID? { UUID(uuidString: id) }

    /// How messages name the row's kind.
    public var noun: String {
        switch entity {
        case .meal: "meal"
        case .weight: "weight entry"
        case .profile: "profile"
        case .row: "entry"
        case .event: "event"
        case .tip: "tip"
        }
    }

    public var description: String {
        collection.isEmpty ? "\(entity.rawValue) \(id)" : "\(entity.rawValue) \(collection)/\(id)"
    }
}
