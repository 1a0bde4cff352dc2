import Foundation

/// Stores any `Codable` value as JSON `TEXT` (keys sorted, so equal values store equal text).
///
/// ```swift
/// struct Tags: Codable, Sendable { var names: [String] }
/// @Column(as: JSONRepresentation<Tags>.self) var tags: Tags
/// JSONRepresentation(Tags(names: ["a"])).sqliteValue    // .text(#"{"names":["a"]}"#)
/// ```
///
/// A value that cannot be encoded is stored as `NULL` (and so fails in a `NOT NULL` column with a
/// constraint error); text that is not valid JSON for the type decodes to `nil`.
public struct JSONRepresentation<Value: Codable & Sendable>: ColumnRepresentation {
  public var represented: Value

  public init(_ represented: Value) { self.represented = represented }

  public static var sqliteTypeName: SqliteTypeName { .text }

  public var sqliteValue: SqliteValue {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(represented), let text = String(data: data, encoding: .utf8)
    else { return .null }
    return .text(text)
  }

  public static func decode(sqliteValue: SqliteValue) -> JSONRepresentation? {
    guard case .text(let text) = sqliteValue,
      let value = try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    else { return nil }
    return JSONRepresentation(value)
  }
}

extension JSONRepresentation: Equatable where Value: Equatable {}
extension JSONRepresentation: Hashable where Value: Hashable {}
