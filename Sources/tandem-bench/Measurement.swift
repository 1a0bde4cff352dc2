/// The timing of one workload on one engine.
struct Measurement {
  /// The fastest run.
  var best: Duration
  /// The median run.
  var median: Duration
  /// What every run read (they must agree).
  var checksum: Checksum
}

/// A measurement, or why there is none.
enum Outcome {
  case measured(Measurement)
  case failed(String)
  /// The engine was left out with `--engine`.
  case skipped

  var isFailure: Bool {
    if case .failed = self { return true }
    return false
  }

  var measurement: Measurement? {
    if case .measured(let measurement) = self { return measurement }
    return nil
  }
}
