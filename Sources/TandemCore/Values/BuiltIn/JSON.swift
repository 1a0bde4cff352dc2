import Foundation

/// Stores any `Codable` value as JSON `TEXT` (keys sorted, so equal values store equal text).
///
/// ```swift
/// struct Tags: Codable, Sendable { var names: [String] }
/// @Column(as: JSONRepresentation<Tags>.self) var tags: Tags
/// JSONRepresentation(Tags(names: ["a"])).sqliteValue    // .text(#"{"names":["a"]}"#)
/// ```
///
/// A value that cannot be encoded (a `Double.nan` inside, say) is not written: it is an encoding
/// failure. Text that is not valid JSON for the type decodes to `nil`.
///
/// JSON columns offer no equality or ordering (`==`, `in`, `group`, `<`, `order { }` do not
/// compile): equal values may be written as different text (a `Set` or a dictionary with
/// non-string keys encodes in any order), and text order is not a Swift order. Test them in
/// Swift after fetching, or store the part you query in a column of its own.
public struct JSONRepresentation<Value: Codable & Sendable>: ColumnRepresentation {
  /// JSON text equality is not Swift equality, so `==`, `in` and `group` do not compile.
  public typealias _QueryEquality = _JSONTextIsNotSwiftEquality

  public var represented: Value

  public init(_ represented: Value) { self.represented = represented }

  public static var sqliteTypeName: SqliteTypeName { .text }

  /// The JSON text, or `NULL` when the value cannot be encoded (rejected by
  /// ``validateForStorage()``).
  public var sqliteValue: SqliteValue {
    guard let text = try? encoded() else { return .null }
    return .text(text)
  }

  /// Throws when `JSONEncoder` cannot encode the value.
  public func validateForStorage() throws {
    do {
      _ = try encoded()
    } catch {
      let path = (error as? EncodingError).map(Self.codingPath) ?? ""
      throw TandemError.encodingFailure(
        table: nil, column: nil, swiftType: "JSONRepresentation<\(Value.self)>",
        reason: "JSONEncoder cannot encode it\(path.isEmpty ? "" : " (at \(path))")")
    }
  }

  private func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(represented), as: UTF8.self)
  }

  /// The keys leading to the value that failed, `tags.0.weight`: names, never values.
  private static func codingPath(_ error: EncodingError) -> String {
    guard case .invalidValue(_, let context) = error else { return "" }
    return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
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
