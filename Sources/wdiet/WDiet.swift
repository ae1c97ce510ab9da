import ArgumentParser

@main
struct WDiet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wdiet",
        abstract: "w-diet: a science-based weight-loss coach and nutrition tracker.",
        subcommands: []
    )
}
