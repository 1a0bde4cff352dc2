/// The floating-point type the linked SQLite 3.40's `printf` computes digits in (`LONGDOUBLE_TYPE`).
///
/// On x86 that is the 80-bit `long double`, which `Float80` reproduces bit for bit; elsewhere
/// `Double` is the closest Swift has, and the last of 16 digits may then differ in rare cases.
#if arch(x86_64) || arch(i386)
typealias LinkedLongDouble = Float80
#else
typealias LinkedLongDouble = Double
#endif

/// SQLite 3.40's own `printf` for reals: `%.Nf` (what sqllogictest prints for an `R` column) and
/// `%!.15g` (how `sqlite3_column_text` renders a REAL).
///
/// Unlike C's printf it produces at most 16 significant digits (26 with `!`), then zeros, and it
/// never prints a minus sign before a value that is `-0.0`.
///
/// The corpus's `R` results were printed by a build whose `long double` is a plain `double` (as on
/// Windows): there `1<<63` prints `…776000.000`, while an x86 `long double` build truncates its
/// digits to `…775000.000`. So ``fixed(_:precision:)`` computes in `Double`, and
/// ``realText(_:)`` — the text engines on this machine produce — in the linked build's type.
///
/// ```swift
/// SQLitePrintf.fixed(-9.223372036854775808e18, precision: 3)  // "-9223372036854776000.000"
/// SQLitePrintf.realText(1.0)                                   // "1.0"
/// ```
enum SQLitePrintf {
  /// `arRound` in printf.c: half a unit in the last place of 0…9 decimals.
  private static let halfUnits: [Double] = [
    5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05, 5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10,
  ]

  /// `%.<precision>f`.
  static func fixed(_ value: Double, precision: Int) -> String {
    render(value, precision: precision, generic: false, bang: false, arithmetic: Double.self)
  }

  /// `%!.15g`: the text SQLite gives a REAL (`1.0`, `0.1`, `1.0e+20`, `Inf`).
  static func realText(_ value: Double) -> String {
    render(value, precision: 15, generic: true, bang: true, arithmetic: LinkedLongDouble.self)
  }

  /// The `etFLOAT`/`etGENERIC` branch of `sqlite3_str_vappendf`, step by step.
  private static func render<PrintfReal: BinaryFloatingPoint>(
    _ value: Double, precision requested: Int, generic: Bool, bang: Bool, arithmetic: PrintfReal.Type
  ) -> String {
    var precision = requested
    var real = PrintfReal(value)
    var sign: UInt8?
    if real < 0 {
      real = -real
      sign = UInt8(ascii: "-")
    }
    if generic && precision > 0 { precision -= 1 }
    var index = precision & 0xfff
    var rounder = halfUnits[index % 10]
    while index >= 10 {
      rounder *= 1.0e-10
      index -= 10
    }
    if !generic {
      let binaryExponent = -1023 + Int((Double(real).bitPattern >> 52) & 0x7ff)
      if precision + binaryExponent / 3 < 15 {
        rounder = Double(PrintfReal(rounder) + real * PrintfReal(3e-16 as Double))
      }
      real += PrintfReal(rounder)
    }
    if real.isNaN { return "NaN" }
    var exponent = 0
    if real > 0 {
      var scale: PrintfReal = 1
      let e100 = PrintfReal(1e100 as Double)
      while real >= e100 * scale && exponent <= 350 {
        scale *= e100
        exponent += 100
      }
      while real >= 1e10 * scale && exponent <= 350 {
        scale *= 1e10
        exponent += 10
      }
      while real >= 10 * scale && exponent <= 350 {
        scale *= 10
        exponent += 1
      }
      real /= scale
      let tiny = PrintfReal(1e-8 as Double)
      while real < tiny {
        real *= 1e8
        exponent -= 8
      }
      while real < 1 {
        real *= 10
        exponent -= 1
      }
      if exponent > 350 {
        return sign == nil ? "Inf" : "-Inf"
      }
    }
    if generic {
      real += PrintfReal(rounder)
      if real >= 10 {
        real *= PrintfReal(0.1 as Double)
        exponent += 1
      }
    }
    var scientific = false
    let trimZeros: Bool
    if generic {
      trimZeros = true
      if exponent < -4 || exponent > precision {
        scientific = true
      } else {
        precision -= exponent
      }
    } else {
      trimZeros = bang
    }
    var wholeDigits = scientific ? 0 : exponent
    var significantLeft = bang ? 26 : 16
    let showsPoint = precision > 0 || bang
    var out: [UInt8] = []
    out.reserveCapacity(32)
    if let sign { out.append(sign) }

    // `et_getdigit`: the next digit of `real`, or "0" once the significant digits are used up.
    func nextDigit() -> UInt8 {
      guard significantLeft > 0 else { return UInt8(ascii: "0") }
      significantLeft -= 1
      let digit = min(max(Int(real.rounded(.towardZero)), 0), 9)
      real = (real - PrintfReal(digit)) * 10
      return UInt8(ascii: "0") + UInt8(digit)
    }

    if wholeDigits < 0 {
      out.append(UInt8(ascii: "0"))
    } else {
      while wholeDigits >= 0 {
        out.append(nextDigit())
        wholeDigits -= 1
      }
    }
    if showsPoint { out.append(UInt8(ascii: ".")) }
    wholeDigits += 1
    while wholeDigits < 0 {
      out.append(UInt8(ascii: "0"))
      precision -= 1
      wholeDigits += 1
    }
    while precision > 0 {
      out.append(nextDigit())
      precision -= 1
    }
    if trimZeros && showsPoint {
      while out.last == UInt8(ascii: "0") { out.removeLast() }
      if out.last == UInt8(ascii: ".") {
        if bang {
          out.append(UInt8(ascii: "0"))
        } else {
          out.removeLast()
        }
      }
    }
    if scientific {
      out.append(UInt8(ascii: "e"))
      var magnitude = exponent
      if magnitude < 0 {
        out.append(UInt8(ascii: "-"))
        magnitude = -magnitude
      } else {
        out.append(UInt8(ascii: "+"))
      }
      if magnitude >= 100 {
        out.append(UInt8(ascii: "0") + UInt8(magnitude / 100))
        magnitude %= 100
      }
      out.append(UInt8(ascii: "0") + UInt8(magnitude / 10))
      out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
    }
    return String(decoding: out, as: UTF8.self)
  }
}
