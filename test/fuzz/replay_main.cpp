// A stand-in for libFuzzer's main: runs LLVMFuzzerTestOneInput once on every
// input file. ctest uses it to replay each target's seed corpus and kept
// regression inputs in the ordinary and sanitizer builds, so those inputs are
// exercised by compilers without libFuzzer too.
//
//   replay_<target> --seeds <dir>        the seed corpus: the directory must
//                                        exist and hold at least one input,
//                                        or the replay fails (exit 1)
//   replay_<target> --regressions <dir>  kept crashing inputs: the directory
//                                        must exist (it is committed with a
//                                        README); with no input in it the
//                                        replay ran nothing and says so:
//                                        "0 kept regressions (skipped)",
//                                        exit 77 (ctest SKIP_RETURN_CODE)
//   replay_<target> <file-or-dir>...     any inputs by hand: every path must
//                                        exist and one input at least must run
//
// In a directory, dot files and README* are not inputs. A check that ran
// nothing never exits 0.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

constexpr int kSkipped = 77;

bool exists(const std::string& path, bool* is_dir) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  *is_dir = S_ISDIR(st.st_mode);
  return true;
}

// The inputs a path names: itself if it is a file, else the files in it.
bool inputs_of(const std::string& path, bool is_dir, std::vector<std::string>* files) {
  if (!is_dir) {
    files->push_back(path);
    return true;
  }
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) {
    std::fprintf(stderr, "replay: cannot open directory %s\n", path.c_str());
    return false;
  }
  std::vector<std::string> found;
  while (const dirent* e = readdir(dir)) {
    const std::string name = e->d_name;
    if (name.empty() || name[0] == '.' || name.rfind("README", 0) == 0) continue;
    found.push_back(path + "/" + name);
  }
  closedir(dir);
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return true;
}

// Runs every file once; false if one cannot be read. A finding aborts inside.
bool run(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
      return false;
    }
    const std::vector<char> content((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    // An exact-size heap copy, so a sanitizer build catches any overread.
    std::vector<uint8_t> data(content.begin(), content.end());
    LLVMFuzzerTestOneInput(data.data(), data.size());
  }
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: replay_<target> --seeds <dir>\n"
               "       replay_<target> --regressions <dir>\n"
               "       replay_<target> <file-or-dir>...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string first = argv[1];

  if (first == "--seeds" || first == "--regressions") {
    if (argc != 3) return usage();
    const bool seeds = first == "--seeds";
    const char* what = seeds ? "seed corpus" : "regressions folder";
    const std::string dir = argv[2];
    bool is_dir = false;
    if (!exists(dir, &is_dir) || !is_dir) {
      std::fprintf(stderr, "replay: FAILED: %s %s is missing (or not a directory)%s\n", what,
                   dir.c_str(),
                   seeds ? "" : "; every target's folder is committed with a README, even with no inputs");
      return 1;
    }
    std::vector<std::string> files;
    if (!inputs_of(dir, true, &files)) return 1;
    if (files.empty()) {
      if (seeds) {
        std::fprintf(stderr, "replay: FAILED: seed corpus %s holds no input; nothing was replayed\n",
                     dir.c_str());
        return 1;
      }
      std::printf("replay: 0 kept regressions in %s (skipped)\n", dir.c_str());
      return kSkipped;
    }
    if (!run(files)) return 1;
    std::printf("replay: %zu %s from %s ran without a finding\n", files.size(),
                seeds ? "seed inputs" : "kept regressions", dir.c_str());
    return 0;
  }

  if (first.rfind("--", 0) == 0) return usage();
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    bool is_dir = false;
    if (!exists(arg, &is_dir)) {
      std::fprintf(stderr, "replay: FAILED: %s does not exist\n", arg.c_str());
      return 1;
    }
    if (!inputs_of(arg, is_dir, &files)) return 1;
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: FAILED: no input in the paths given; nothing was replayed\n");
    return 1;
  }
  if (!run(files)) return 1;
  std::printf("replay: %zu inputs ran without a finding\n", files.size());
  return 0;
}
