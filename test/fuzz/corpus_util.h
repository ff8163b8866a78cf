// What every seed corpus generator (corpus_<name>.cpp) shares: the command
// line, the two directories of a type (<dir>/<type>_parse/ for the binary
// target, <dir>/<type>_text/ for the text target) or the one directory of a
// target that takes other inputs (<dir>/<target>/), and writing the files.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/common/hex.h"

namespace sketch::fuzz::corpus {

inline void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

class Writer {
 public:
  // argv[1] is the corpus directory; exits with a usage message otherwise.
  Writer(int argc, char** argv, const std::string& type) {
    if (argc != 2) {
      std::fprintf(stderr, "usage: %s <corpus-dir>\n", argv[0]);
      std::exit(2);
    }
    parse_ = std::string(argv[1]) + "/" + type + "_parse";
    text_ = std::string(argv[1]) + "/" + type + "_text";
    for (const std::string& d : {std::string(argv[1]), parse_, text_}) mkdir(d.c_str(), 0755);
  }

  // A stored sketch: binary into <type>_parse, its text form into <type>_text.
  void stored(const std::string& name, const std::vector<uint8_t>& bytes) const {
    state(name, bytes);
    std::string text(hex_text_size(bytes.size()), '\0');
    hex_encode(bytes.data(), bytes.size(), text.data());
    write_file(text_ + "/" + name + ".hex", text);
  }

  // An aggregate state: binary only, since only the structure check reads it.
  void state(const std::string& name, const std::vector<uint8_t>& bytes) const {
    write_file(parse_ + "/" + name + ".bin", std::string(bytes.begin(), bytes.end()));
  }

 private:
  std::string parse_;
  std::string text_;
};

// The seed corpus of one target: <dir>/<target>/<name>.bin.
class Folder {
 public:
  // argv[1] is the corpus directory; exits with a usage message otherwise.
  Folder(int argc, char** argv, const std::string& target) {
    if (argc != 2) {
      std::fprintf(stderr, "usage: %s <corpus-dir>\n", argv[0]);
      std::exit(2);
    }
    dir_ = std::string(argv[1]) + "/" + target;
    for (const std::string& d : {std::string(argv[1]), dir_}) mkdir(d.c_str(), 0755);
  }

  void write(const std::string& name, const std::vector<uint8_t>& bytes) const {
    write_file(dir_ + "/" + name + ".bin", std::string(bytes.begin(), bytes.end()));
  }

 private:
  std::string dir_;
};

}  // namespace sketch::fuzz::corpus
