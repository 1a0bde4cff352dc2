/// The C `long double` SQLite 3.40 computes with on this platform.
///
/// On x86-64 it is the x87 80-bit extended type, which the REAL↔TEXT conversions depend on for
/// bit-exact results. Elsewhere `Double` is the closest available stand-in (results may then
/// differ from SQLite in the last digit of near-tie cases).
#if arch(x86_64) || arch(i386)
typealias LongDouble = Float80
#else
typealias LongDouble = Double
#endif
