// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "wdiet",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "wdiet", targets: ["wdiet"]),
        // Developer tools (benchmarks, a seeded population), not part of the product.
        .executable(name: "wdiet-dev", targets: ["wdiet-dev"]),
        .library(name: "WDietCore", targets: ["WDietCore"]),
        .library(name: "WDietSQLite", targets: ["WDietSQLite"]),
        .library(name: "WDietClient", targets: ["WDietClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        // Already resolved through postgres-nio and async-http-client; declared for the SMTP client's TLS.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // The string catalog (Resources/strings/<language>/*.json) ships with the core: the server, the client
        // and the command line all speak through it.
        .target(name: "WDietCore", resources: [.copy("Resources/strings")]),
        .target(name: "WDietFoodData", dependencies: ["WDietCore"]),
        .target(name: "WDietStore", dependencies: ["WDietCore", "WDietFoodData"]),
        .target(
            name: "WDietSQLite",
            dependencies: ["WDietCore", "WDietFoodData", "WDietStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The offline-first client engine a native app embeds: its own GRDB store, the outbox and the sync loop.
        // Never the server or Hummingbird (an iOS app links it); HTTP through URLSession.
        .target(
            name: "WDietClient",
            dependencies: ["WDietCore", "WDietStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The same store protocols on PostgreSQL, for deployments with several `wdiet serve` processes.
        .target(
            name: "WDietPostgres",
            dependencies: [
                "WDietCore", "WDietFoodData", "WDietStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // `PostgresInstant` writes timestamptz parameters itself (a ByteBuffer), exact to the millisecond.
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // What the server and the command-line programs share beneath the server: opening a database from a path or
        // URL (`StoreLocation`), the user-data export formats, session tokens as the account store keeps them, and
        // where the SR28 files are. Not for WDietClient: an app carries neither backend nor these.
        .target(
            name: "WDietStorage",
            dependencies: [
                "WDietCore", "WDietFoodData", "WDietStore", "WDietSQLite", "WDietPostgres",
                // Their errors, read to say in one line what went wrong (DatabaseError, PSQLError).
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // SHA-256 of session tokens.
                .product(name: "Crypto", package: "swift-crypto"),
                // The CSV export's zip (deflate, via the system's zlib).
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Reading a nutrition label from a photo: the vips tools, panel finding, Tesseract's C API loaded at run time
        // (dlopen of libtesseract.so.5: nothing is linked, so the package builds without libtesseract-dev), and
        // WDietCore's LabelParser. See docs/label-scan.md.
        .target(name: "WDietLabelScan", dependencies: ["WDietCore"]),
        .target(
            name: "WDietServer",
            dependencies: [
                "WDietCore", "WDietFoodData", "WDietStore", "WDietSQLite", "WDietPostgres", "WDietStorage", "WDietLabelScan",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Mustache", package: "swift-mustache"),
                // NIOThreadPool: bcrypt runs there, off the threads that serve requests.
                .product(name: "NIOPosix", package: "swift-nio"),
                // The SMTP client's STARTTLS and implicit TLS (Auth/SMTPMailer.swift).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Ink renders the Learn tab's Markdown articles (once, at startup).
                .product(name: "Ink", package: "Ink"),
                // Sign in with Apple and Google: ID-token signatures (JWTKit) and the providers' JWKS (AsyncHTTPClient).
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [
                .copy("Resources/templates"), .copy("Resources/public"), .copy("Resources/learn"),
                .copy("Auth/common-passwords.txt"), .copy("Resources/openapi.yaml"),
            ]
        ),
        .executableTarget(
            name: "wdiet",
            dependencies: [
                "WDietCore", "WDietFoodData", "WDietStore", "WDietSQLite", "WDietPostgres", "WDietStorage", "WDietServer",
                "WDietClient", "WDietLabelScan",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `wdiet-dev bench` and `wdiet-dev seed`: for the people who work on w-diet, not shipped. Never the server:
        // what they share with it lives in WDietStorage.
        .executableTarget(
            name: "wdiet-dev",
            dependencies: [
                "WDietCore", "WDietFoodData", "WDietStore", "WDietSQLite", "WDietPostgres", "WDietStorage", "WDietLabelScan",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "WDietTestSupport",
            dependencies: [
                "WDietCore", "WDietFoodData", "WDietStore", "WDietSQLite", "WDietPostgres",
                // SR28TestDatabase copies the imported catalog with SQLite's backup.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "WDietCoreTests", dependencies: ["WDietCore", "WDietTestSupport"]),
        // The OCR pipeline on the dev photos in ../shared/datasets/nutrition-labels (skipped where Tesseract is missing).
        .testTarget(name: "WDietLabelScanTests", dependencies: ["WDietLabelScan", "WDietCore", "WDietTestSupport"]),
        .testTarget(name: "WDietFoodDataTests", dependencies: ["WDietFoodData", "WDietTestSupport"]),
        // Runs the built `wdiet` and `wdiet-dev` binaries as a user would: output, exit codes, one-line errors; and
        // `StoreLocation`, which every command reads its `--database` with.
        .testTarget(
            name: "WDietCLITests",
            dependencies: [
                "wdiet", "wdiet-dev", "WDietTestSupport", "WDietPostgres", "WDietStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // `wdiet-dev seed`'s population is read back through the server's stores and its session tokens;
                // `wdiet client` tests sign in and sync against the real server, started in the test process.
                "WDietCore", "WDietServer", "WDietSQLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WDietServerTests",
            dependencies: [
                "WDietServer", "WDietTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // Sign in with Apple/Google tests sign ID tokens with RSA keys they generate.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Reads the CSV export's zip back.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // An SMTP sink with STARTTLS and implicit TLS on loopback (SMTPTransportSecurityTests).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        // The store protocols' conformance suite, run against SQLite and a real PostgreSQL (WDIET_TEST_POSTGRES_URL).
        .testTarget(
            name: "WDietPostgresTests",
            dependencies: ["WDietCore", "WDietFoodData", "WDietStore", "WDietSQLite", "WDietPostgres", "WDietTestSupport"]
        ),
        // The client engine: outbox and backoff units, and end to end against the real server over HTTP.
        .testTarget(
            name: "WDietClientTests",
            dependencies: [
                "WDietClient", "WDietServer", "WDietSQLite", "WDietPostgres", "WDietTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // The in-process server's bound port (port 0) comes from its NIO channel.
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "WDietSQLiteTests", dependencies: ["WDietCore", "WDietFoodData", "WDietStore", "WDietSQLite", "WDietTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
