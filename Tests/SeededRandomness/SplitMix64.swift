/// A small, fast, deterministic random number generator (SplitMix64), the one every test target
/// draws its seeded data from.
///
/// Every fuzz case seeds its own generator from the campaign seed and the case index, so a case
/// can be regenerated alone, on any machine, from those two numbers.
///
/// ```swift
/// var random = SplitMix64(seed: 42, stream: 7)
/// random.next()  // always the same number for (42, 7)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator for one stream (a case index) of a campaign seed.
  public init(seed: UInt64, stream: UInt64 = 0) {
    // Mix the stream in through one SplitMix step so neighbouring streams are unrelated.
    var mixer = SplitMix64(rawState: seed ^ 0x5DEE_CE66_D1CE_4E5B)
    for _ in 0...stream % 3 { _ = mixer.next() }
    state = mixer.next() &+ stream &* 0x9E37_79B9_7F4A_7C15
  }

  private init(rawState: UInt64) { state = rawState }

  /// A generator that starts from `state` as it is (the plain SplitMix64 of fixed-seed tests).
  ///
  /// ```swift
  /// var random = SplitMix64(state: 72)
  /// ```
  public init(state: UInt64) { self.state = state }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension SplitMix64 {
  /// `true` with probability `probability` (0...1).
  public mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) * 0x1p-53 < probability
  }

  /// A uniformly chosen integer in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// A uniformly chosen element; `elements` must not be empty.
  public mutating func pick<C: Collection>(_ elements: C) -> C.Element where C.Index == Int {
    elements[elements.startIndex + Int.random(in: 0..<elements.count, using: &self)]
  }

  /// One of several weighted alternatives: `weighted([(3, .a), (1, .b)])` returns `.a` three times as often.
  public mutating func weighted<T>(_ choices: [(Int, T)]) -> T {
    let total = choices.reduce(0) { $0 + max(0, $1.0) }
    var roll = Int.random(in: 0..<max(1, total), using: &self)
    for (weight, value) in choices where weight > 0 {
      if roll < weight { return value }
      roll -= weight
    }
    return choices[choices.count - 1].1
  }

  /// A random subset of `elements` in random order, of a size in `count`.
  public mutating func sample<T>(_ elements: [T], count: ClosedRange<Int>) -> [T] {
    var pool = elements
    pool.shuffle(using: &self)
    let n = min(pool.count, int(count))
    return Array(pool.prefix(max(0, n)))
  }
}
