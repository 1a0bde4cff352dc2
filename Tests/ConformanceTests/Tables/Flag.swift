import Tandem

/// Two nullable booleans, for SQL's three-valued logic.
@Table struct Flag: Equatable {
  let id: Int
  var a: Bool?
  var b: Bool?
}

extension Flag {
  /// Every combination of NULL, false and true: (nil, nil), (nil, false), … (true, true).
  static let samples: [Flag] = {
    let values: [Bool?] = [nil, false, true]
    var flags: [Flag] = []
    for a in values {
      for b in values { flags.append(Flag(id: flags.count + 1, a: a, b: b)) }
    }
    return flags
  }()
}
