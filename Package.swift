// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "Tandem",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    .library(name: "Tandem", targets: ["Tandem"]),
    .executable(name: "tandem-demo", targets: ["tandem-demo"]),
    .executable(name: "tandem-bench", targets: ["tandem-bench"]),
    .executable(name: "tandem-slt", targets: ["tandem-slt"]),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
  ],
  targets: [
    // The system SQLite library (apt: libsqlite3-dev).
    .systemLibrary(
      name: "CSQLite",
      path: "Backends/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // Value layer, schema, query model, errors and the backend protocol.
    .target(name: "TandemCore"),
    // The SQLite engine: renders the query model to SQL and runs it.
    .target(
      name: "TandemSQLite",
      dependencies: ["TandemCore", "CSQLite"],
      path: "Backends/SQLite"
    ),
    // A parser of SQLite's SQL text into the query model (for engines that do not take SQL).
    .target(name: "TandemSQL", dependencies: ["TandemCore"]),
    // The pure-Swift engine: evaluates the query model itself.
    .target(
      name: "TandemMemory",
      dependencies: ["TandemCore", "TandemSQL"],
      path: "Backends/Memory"
    ),
    .macro(
      name: "TandemMacros",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
      ]
    ),
    // What users import.
    .target(
      name: "Tandem",
      dependencies: ["TandemCore", "TandemSQLite", "TandemMemory", "TandemMacros"]
    ),
    .executableTarget(name: "tandem-demo", dependencies: ["Tandem"]),
    // A runner of SQLite's sqllogictest files, over any engine; `tandem-slt` runs it on `Database`.
    .target(name: "SQLLogicTest", dependencies: ["Tandem"]),
    .executableTarget(name: "tandem-slt", dependencies: ["SQLLogicTest", "Tandem"]),
    .executableTarget(
      name: "tandem-bench",
      dependencies: ["Tandem", "CSQLite"]
    ),

    .testTarget(name: "TandemCoreTests", dependencies: ["TandemCore", "CSQLite", "SQLiteReference"]),
    .testTarget(
      name: "TandemMacrosTests",
      dependencies: [
        "TandemMacros",
        .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
      ]
    ),
    .testTarget(name: "TandemSQLiteTests", dependencies: ["TandemSQLite", "TandemCore", "CSQLite"]),
    .testTarget(
      name: "TandemSQLTests", dependencies: ["TandemSQL", "TandemCore", "TandemSQLite", "CSQLite", "SQLiteReference"]),
    .testTarget(
      name: "TandemMemoryTests",
      dependencies: ["TandemMemory", "TandemCore", "CSQLite", "SeededRandomness", "SQLiteReference"]),
    .testTarget(name: "TandemTests", dependencies: ["Tandem", "CSQLite", "SQLiteReference"]),
    // One body of behaviour tests, run against every backend.
    .testTarget(name: "ConformanceTests", dependencies: ["Tandem", "SeededRandomness"]),
    // Seeded random schemas, rows and queries run on both engines; results must match.
    // The memory engine is imported to turn on its storage checks (see PairRunner).
    .testTarget(name: "DifferentialTests", dependencies: ["Tandem", "TandemMemory", "SeededRandomness"]),
    // The sqllogictest runner, proved on raw SQLite, and the corpus on the engines.
    .testTarget(
      name: "SQLLogicTests",
      dependencies: ["SQLLogicTest", "Tandem", "CSQLite", "TandemCore", "SeededRandomness", "SQLiteReference"]),
    // The one seeded generator (SplitMix64) the test targets draw their data from.
    .target(name: "SeededRandomness", path: "Tests/SeededRandomness"),
    // Real SQLite over its C API, the reference the test targets compare against.
    .target(name: "SQLiteReference", dependencies: ["TandemCore", "CSQLite"], path: "Tests/SQLiteReference"),
  ],
  swiftLanguageModes: [.v6]
)
