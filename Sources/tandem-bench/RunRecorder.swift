/// Collects the runs of one workload on one engine.
struct RunRecorder {
  private(set) var times: [Duration] = []
  private(set) var checksum: Checksum?
  /// Why the engine stopped, if it failed.
  private(set) var failure: String?

  /// Runs `setUp` (untimed) then `body` (timed) once; a thrown error or a checksum that differs
  /// from the previous run's ends this engine's measurement.
  /// A warm-up run (`isTimed == false`) is checked but not timed.
  mutating func run(isTimed: Bool = true, setUp: () throws -> Void, body: () throws -> Checksum) {
    guard failure == nil else { return }
    do {
      try setUp()
      let clock = ContinuousClock()
      let start = clock.now
      let result = try body()
      let elapsed = clock.now - start
      if let checksum, checksum != result {
        throw BenchError("the checksum changed between runs (\(checksum) then \(result))")
      }
      checksum = result
      if isTimed { times.append(elapsed) }
    } catch {
      failure = "\(error)"
    }
  }

  /// Records a failure that happened outside a timed run (setting up, verifying).
  mutating func fail(_ message: String) {
    if failure == nil { failure = message }
  }

  /// Replaces the checksum (W1 checks the table's content after the runs).
  mutating func setChecksum(_ checksum: Checksum) {
    self.checksum = checksum
  }

  /// The best and median run, or the failure.
  var outcome: Outcome {
    if let failure { return .failed(failure) }
    guard !times.isEmpty, let checksum else { return .failed("not run") }
    let sorted = times.sorted()
    return .measured(Measurement(best: sorted[0], median: sorted[sorted.count / 2], checksum: checksum))
  }
}
