// The Apache DataSketches libraries' own serialized sketches and their
// MANIFEST.tsv (file, bytes, sha256 prefix, decoded fields, verification),
// for the tests of the DataSketches readers. The files are not shipped in
// this repository: they are read from SKETCH_DATASKETCHES_FILES, default
// ../shared/interop/datasketches beside the checkout, else
// /work/shared/interop/datasketches. Without them a test skips, or fails
// when CI=true (as the interop scripts do).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sketch::test::datasketches_files {

inline bool exists(const std::string& path) { return std::ifstream(path).good(); }

// The folder holding MANIFEST.tsv, or "" when none is found.
inline std::string folder() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("SKETCH_DATASKETCHES_FILES")) candidates.push_back(env);
#ifdef SKETCH_SOURCE_DIR
  candidates.push_back(std::string(SKETCH_SOURCE_DIR) + "/../shared/interop/datasketches");
#endif
  candidates.push_back("../shared/interop/datasketches");
  candidates.push_back("../../shared/interop/datasketches");
  candidates.push_back("/work/shared/interop/datasketches");
  for (const std::string& c : candidates)
    if (exists(c + "/MANIFEST.tsv")) return c;
  return "";
}

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Entry {
  std::string file;  // relative to folder()
  size_t bytes;
  std::map<std::string, std::string> fields;  // key=value of the decoded column
  std::string decoded;                        // the column as written
  std::string verification;
};

// Splits "a=1 b=x items={...} c=2": a value runs to the next " key=" (so
// a dict with spaces stays whole).
inline std::map<std::string, std::string> parse_fields(const std::string& s) {
  std::map<std::string, std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    const size_t eq = s.find('=', i);
    if (eq == std::string::npos) break;
    const std::string key = s.substr(i, eq - i);
    size_t end = eq + 1;
    int depth = 0;
    bool quoted = false;
    for (; end < s.size(); end++) {
      const char c = s[end];
      if (c == '\'') quoted = !quoted;
      if (quoted) continue;
      if (c == '{') depth++;
      if (c == '}') depth--;
      if (c == ' ' && depth == 0) {
        // "items=40 items": a space not followed by key= belongs to the value
        const size_t next_eq = s.find('=', end + 1);
        const size_t next_space = s.find(' ', end + 1);
        if (next_eq != std::string::npos && (next_space == std::string::npos || next_eq < next_space))
          break;
      }
    }
    out[key] = s.substr(eq + 1, end - eq - 1);
    i = end + 1;
  }
  return out;
}

// The MANIFEST entries whose file name contains `needle`.
inline std::vector<Entry> entries(const std::string& dir, const std::string& needle) {
  std::vector<Entry> out;
  std::ifstream in(dir + "/MANIFEST.tsv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) cols.push_back(col);
    if (cols.size() < 4 || cols[0].find(needle) == std::string::npos) continue;
    Entry e{cols[0], std::stoul(cols[1]), parse_fields(cols[3]), cols[3],
            cols.size() > 4 ? cols[4] : ""};
    out.push_back(e);
  }
  return out;
}

// Skips the test (fails it when CI=true) when the files are not there.
#define SKETCH_REQUIRE_DATASKETCHES_FILES(dir)                                       \
  const std::string dir = ::sketch::test::datasketches_files::folder();             \
  if (dir.empty()) {                                                                 \
    const char* ci = std::getenv("CI");                                              \
    if (ci != nullptr && std::string(ci) == "true")                                  \
      FAIL() << "the DataSketches files are not found (SKETCH_DATASKETCHES_FILES)";  \
    GTEST_SKIP() << "the DataSketches files are not found (SKETCH_DATASKETCHES_FILES)"; \
  }

}  // namespace sketch::test::datasketches_files
