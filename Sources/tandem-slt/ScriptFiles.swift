import Foundation

/// The `.test` files the command line names: files as given, folders searched recursively and
/// sorted by path.
enum ScriptFiles {
  /// The script files under `paths`, or the first path that does not exist.
  static func collect(_ paths: [String]) -> Result<[URL], MissingPath> {
    var files: [URL] = []
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        return .failure(MissingPath(path: path))
      }
      let url = URL(fileURLWithPath: path)
      guard isFolder.boolValue else {
        files.append(url)
        continue
      }
      let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
      let found = (walker?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "test" }
      files += found.sorted { $0.path < $1.path }
    }
    return .success(files)
  }

  /// A path on the command line that names nothing.
  struct MissingPath: Error {
    var path: String
  }
}
