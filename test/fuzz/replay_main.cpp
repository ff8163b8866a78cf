// A stand-in for libFuzzer's main: runs LLVMFuzzerTestOneInput once on every
// file named on the command line or found in a directory named there (dot
// files and README* skipped). ctest uses it to replay each target's seed
// corpus and kept regression inputs in the ordinary and sanitizer builds, so
// those inputs are exercised by compilers without libFuzzer too.
//
//   replay_<target> <dir-or-file>...    missing directories count as empty
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool is_dir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> inputs_of(const std::string& path) {
  if (!is_dir(path)) return {path};
  std::vector<std::string> files;
  if (DIR* dir = opendir(path.c_str())) {
    while (const dirent* e = readdir(dir)) {
      const std::string name = e->d_name;
      if (name.empty() || name[0] == '.' || name.rfind("README", 0) == 0) continue;
      files.push_back(path + "/" + name);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  size_t count = 0;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    struct stat st;
    if (stat(arg.c_str(), &st) != 0) {
      std::printf("replay: %s does not exist, nothing to replay there\n", arg.c_str());
      continue;
    }
    for (const std::string& file : inputs_of(arg)) {
      std::ifstream in(file, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
        return 1;
      }
      const std::vector<char> content((std::istreambuf_iterator<char>(in)),
                                      std::istreambuf_iterator<char>());
      // An exact-size heap copy, so a sanitizer build catches any overread.
      std::vector<uint8_t> data(content.begin(), content.end());
      LLVMFuzzerTestOneInput(data.data(), data.size());
      count++;
    }
  }
  std::printf("replay: %zu inputs ran without a finding\n", count);
  return 0;
}
