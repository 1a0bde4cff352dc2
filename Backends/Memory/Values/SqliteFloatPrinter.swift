/// A port of the floating-point conversions of SQLite 3.40's own `printf` (`%g`, `%f`, `%e`),
/// which computes digits in `long double` and is not correctly rounded.
enum SqliteFloatPrinter {
  /// The printf conversion letter.
  enum Style {
    /// `%f`.
    case fixed
    /// `%e`.
    case exponential
    /// `%g`.
    case generic
  }

  /// `arRound[]`: 0.5 × 10^-i.
  private static let halfUnits: [Double] = [
    5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05, 5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10,
  ]

  private static let ten = LongDouble(10.0 as Double)
  private static let tenToThe10 = LongDouble(1e10 as Double)
  private static let tenToThe100 = LongDouble(1e100 as Double)
  private static let tenToThe8 = LongDouble(1e8 as Double)
  private static let tenToTheMinus8 = LongDouble(1e-8 as Double)
  private static let oneTenth = LongDouble(0.1 as Double)
  private static let fudge = LongDouble(3e-16 as Double)

  /// Formats `value` like SQLite's `printf("%[!].<precision><style>")`.
  ///
  /// `alternateForm2` is SQLite's `!` flag: 26 significant digits instead of 16, and `%g` keeps
  /// one digit after the decimal point (`1.0`).
  static func format(_ value: Double, precision requested: Int, style: Style, alternateForm2: Bool) -> [UInt8] {
    var precision = requested < 0 ? 6 : requested
    var realValue = LongDouble(value)
    var out: [UInt8] = []
    out.reserveCapacity(32)
    if value < 0 {
      realValue = -realValue
      out.append(UInt8(ascii: "-"))
    }
    if style == .generic && precision > 0 { precision -= 1 }
    var index = precision & 0xFFF
    var rounder = halfUnits[index % 10]
    while index >= 10 {
      rounder *= 1.0e-10
      index -= 10
    }
    if style == .fixed {
      let binaryExponent = -1023 + Int((Double(realValue).bitPattern >> 52) & 0x7FF)
      if precision + binaryExponent / 3 < 15 {
        rounder = Double(LongDouble(rounder) + realValue * fudge)
      }
      realValue += LongDouble(rounder)
    }
    if realValue.isNaN { return Array("NaN".utf8) }
    var exponent = 0
    if realValue > 0 {
      var scale: LongDouble = 1
      while realValue >= tenToThe100 * scale && exponent <= 350 {
        scale *= tenToThe100
        exponent += 100
      }
      while realValue >= tenToThe10 * scale && exponent <= 350 {
        scale *= tenToThe10
        exponent += 10
      }
      while realValue >= ten * scale && exponent <= 350 {
        scale *= ten
        exponent += 1
      }
      realValue /= scale
      while realValue < tenToTheMinus8 {
        realValue *= tenToThe8
        exponent -= 8
      }
      while realValue < 1 {
        realValue *= ten
        exponent -= 1
      }
      if exponent > 350 {
        out.append(contentsOf: "Inf".utf8)
        return out
      }
    }
    var type = style
    if style != .fixed {
      realValue += LongDouble(rounder)
      if realValue >= ten {
        realValue *= oneTenth
        exponent += 1
      }
    }
    let removeTrailingZeros: Bool
    if style == .generic {
      removeTrailingZeros = true
      if exponent < -4 || exponent > precision {
        type = .exponential
      } else {
        precision -= exponent
        type = .fixed
      }
    } else {
      removeTrailingZeros = alternateForm2
    }
    var e2 = type == .exponential ? 0 : exponent
    var significantDigits = 16 + (alternateForm2 ? 10 : 0)
    let hasPoint = precision > 0 || alternateForm2
    let mantissaStart = out.count

    func nextDigit() -> UInt8 {
      if significantDigits <= 0 { return UInt8(ascii: "0") }
      significantDigits -= 1
      let digit = realValue >= 0 && realValue < ten ? Int(realValue) : 0
      realValue = (realValue - LongDouble(digit)) * ten
      return UInt8(0x30 + digit)
    }

    if e2 < 0 {
      out.append(UInt8(ascii: "0"))
    } else {
      while e2 >= 0 {
        out.append(nextDigit())
        e2 -= 1
      }
    }
    if hasPoint { out.append(UInt8(ascii: ".")) }
    e2 += 1
    while e2 < 0 {
      out.append(UInt8(ascii: "0"))
      precision -= 1
      e2 += 1
    }
    while precision > 0 {
      precision -= 1
      out.append(nextDigit())
    }
    if removeTrailingZeros && hasPoint {
      while out.count > mantissaStart, out[out.count - 1] == UInt8(ascii: "0") { out.removeLast() }
      if out.last == UInt8(ascii: ".") {
        if alternateForm2 {
          out.append(UInt8(ascii: "0"))
        } else {
          out.removeLast()
        }
      }
    }
    if type == .exponential {
      out.append(UInt8(ascii: "e"))
      if exponent < 0 {
        out.append(UInt8(ascii: "-"))
        exponent = -exponent
      } else {
        out.append(UInt8(ascii: "+"))
      }
      if exponent >= 100 {
        out.append(UInt8(0x30 + exponent / 100))
        exponent %= 100
      }
      out.append(UInt8(0x30 + exponent / 10))
      out.append(UInt8(0x30 + exponent % 10))
    }
    return out
  }
}
