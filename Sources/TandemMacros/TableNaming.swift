/// The naming convention for tables: lowercase the first letter of the type's name, then make
/// its last word plural with three English rules.
///
/// ```swift
/// TableNaming.tableName(forTypeNamed: "RemindersList") // "remindersLists"
/// TableNaming.tableName(forTypeNamed: "Category")      // "categories"
/// ```
///
/// The rules look only at the last letters: a consonant followed by `y` becomes `ies`; `s`, `x`,
/// `z`, `ch` and `sh` take `es`; everything else takes `s`. Irregular plurals (`Person` →
/// `persons`), words already plural and names ending in capitals (`URL` → `uRLs`) need an explicit
/// `@Table("name")`.
public enum TableNaming {
  /// The default table name for a type name.
  public static func tableName(forTypeNamed typeName: String) -> String {
    pluralize(lowercasingFirstLetter(typeName))
  }

  static func lowercasingFirstLetter(_ name: String) -> String {
    guard let first = name.first else { return name }
    return first.lowercased() + name.dropFirst()
  }

  static func pluralize(_ word: String) -> String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    if word.hasSuffix("y"), let beforeY = word.dropLast().last, beforeY.isLetter, !vowels.contains(beforeY) {
      return word.dropLast() + "ies"
    }
    if ["s", "x", "z", "ch", "sh"].contains(where: word.hasSuffix) {
      return word + "es"
    }
    return word + "s"
  }
}
