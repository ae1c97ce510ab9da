/// What a sync change or item is about. The raw values are the wire's (`"entity": "meal"`) and are never renamed.
public enum SyncEntity: String, Codable, Sendable, CaseIterable {
    /// A logged meal (`meals`), keyed by its client-generated id.
    case meal
    /// A weight entry (`weights`), keyed by its client-generated id.
    case weight
    /// The user's one profile; pushes carry no id, pulls carry the profile row's id.
    case profile
    /// An analytics event (004 Epic 5): pushed, insert-only, never pulled.
    case event
    /// A generic row of a named collection (the journal's, later), keyed by (collection, id), with a JSON object.
    case row
    /// A dismissed coach tip: pulled only (dismissals are made through `POST /api/v1/tips/{id}/dismiss`).
    case tip
}
