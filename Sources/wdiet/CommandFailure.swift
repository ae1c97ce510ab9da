/// A problem the command line reports as one line (through `WDiet.main`), exit code 1. A database's problems are
/// `StoreFailure`s (WDietStorage), reported the same way.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
