import Testing
import WDietCore

@Suite struct AccountInputTests {
    @Test(arguments: [
        ("ana@example.com", "ana@example.com"),
        ("  Ana.Lopez+diet@Example.CO.uk \n", "ana.lopez+diet@example.co.uk"),
        ("o'brien@example.ie", "o'brien@example.ie"),
        ("jürgen@müller.de", "jürgen@müller.de"),
        ("a@b-c.io", "a@b-c.io"),
    ])
    func acceptsAndNormalizesEmails(_ text: String, _ expected: String) {
        #expect(AccountInput.normalizedEmail(text) == expected)
        #expect(AccountInput.signUpErrors(email: text, password: "long enough").isEmpty)
    }

    @Test(arguments: [
        "", "ana", "ana@", "@example.com", "ana@example", "ana@example.c", "ana@.example.com", "ana@example..com",
        "ana@example.com.", "ana@-example.com", "ana@example-.com", "a na@example.com", "ana@exa_mple.com",
        "ana@@example.com", "ana@b@example.com", ".ana@example.com", "ana.@example.com", "an..a@example.com",
        "\"ana\"@example.com", "ana,bob@example.com", "ana@127.0.0.1", "ana\u{0}@example.com",
        String(repeating: "a", count: 65) + "@example.com",
        "ana@" + String(repeating: "a", count: 250) + ".com",
    ])
    func refusesWhatIsNotAnEmail(_ text: String) {
        #expect(AccountInput.normalizedEmail(text) == nil)
        #expect(AccountInput.signUpErrors(email: text, password: "long enough") == [
            .email: "Please enter a valid email address (e.g., you@example.com)",
        ])
    }

    @Test(arguments: [
        ("", "Password must be at least 8 characters"),
        ("1234567", "Password must be at least 8 characters"),
        ("12345678", nil),
        (String(repeating: "é", count: 128), nil),
        (String(repeating: "é", count: 129), "Password must be at most 128 characters"),
        // Seven characters a person sees, however many scalars and bytes they take.
        ("👩‍👩‍👧‍👦👍🏽🇩🇪e\u{301}abc", "Password must be at least 8 characters"),
    ] as [(String, String?)])
    func passwordLength(_ password: String, _ message: String?) {
        #expect(AccountInput.newPasswordError(password) == message)
    }

    @Test func signingInOnlyAsksForWhatIsMissing() {
        #expect(AccountInput.signInErrors(email: "ana@example.com", password: "short").isEmpty)
        #expect(AccountInput.signInErrors(email: "ana@example.com", password: "") == [.password: "Please enter your password"])
        #expect(AccountInput.signInErrors(email: "ana", password: "x") == [
            .email: "Please enter a valid email address (e.g., you@example.com)",
        ])
    }
}
