import ArgumentParser
import Foundation
import WDietClient

/// `wdiet client login`: signs in (or registers, or starts a guest account) and syncs once.
struct ClientLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a w-diet server (email and password, a new account with --register, or --guest), then sync."
    )

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "The server's address, e.g. http://localhost:8080") var server: String
    @Option(help: "The account's email.") var email: String?
    @Option(help: "The account's password.") var password: String?
    @Flag(help: "Create the account with this email and password.") var register = false
    @Flag(help: "Continue without an account (a guest the server creates).") var guest = false

    func validate() throws {
        if guest {
            guard email == nil, password == nil, !register else { throw ValidationError("--guest takes no --email, --password or --register") }
        } else {
            guard email != nil, password != nil else { throw ValidationError("Give --email and --password, or --guest") }
        }
    }

    func run() async throws {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server must be an http:// or https:// address, not '\(server)'")
        }
        let store = try options.open()
        let accounts = AccountClient(server: url)
        let account: ClientStore.Account
        do {
            if guest {
                account = try await accounts.guest()
            } else if register {
                account = try await accounts.register(email: email!, password: password!)
            } else {
                account = try await accounts.login(email: email!, password: password!)
            }
        } catch let error as SyncTransportError {
            throw CommandFailure("sign-in failed: \(error)")
        }
        try store.signIn(account)
        print("Signed in as \(account.email ?? "a guest") on \(url.absoluteString) (store: \(options.path)).")
        let engine = try ClientSync.engine(for: store)
        do {
            print(try ClientSync.report(await engine.sync(), store: store))
        } catch let failure as CommandFailure {
            // Signed in all the same: the session is stored and the next `sync` tries again.
            FileHandle.standardError.write(Data("wdiet: signed in, but the first sync did not complete: \(failure.description)\n".utf8))
        }
        if try store.profile() == nil {
            print("No profile yet: set it with `wdiet client profile …` before logging meals.")
        }
    }
}
