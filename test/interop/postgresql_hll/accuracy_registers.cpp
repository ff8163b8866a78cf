// The registers of the accuracy test (accuracy.sql, run by postgresql_hll.sh):
// uniform random 64-bit hashes from a fixed stream per salt, filed into
// postgresql-hll FULL registers exactly as the peer files a hash
// (pghll::register_of: index = the low log2m bits, value = 1 + trailing
// zeros of the rest, capped by regwidth), and at every n of a log-spaced
// grid from 10 to 10^7 a snapshot written as the peer's FULL bytes with
// expthresh 0 and sparseon 0 (a configuration the peer writes itself, so it
// and sketch read the same registers). Only hashes and packing happen here;
// both estimates come from the two extensions, in SQL.
//
//   accuracy_registers <salts> [threads]  >  COPY ... FROM STDIN (FORMAT binary)
//
// Rows: (log2m int4, regwidth int4, n int8, salt int4, bytes bytea). Salt s
// draws from splitmix64 seeded with s; the output depends only on <salts>,
// not on the thread count (salts are written in order).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/number_items.h"
#include "core/hll/pghll.h"
#include "core/hll/pghll_bits.h"

namespace pghll = sketch::hll::pghll;

namespace {

// The configurations: the log2m 11 and 14 at the peer's default
// regwidth 5 on every n, and regwidth 6 at log2m 13 (where the peer's large
// range correction shifts a 64-bit 1 by 62 + log2m bits and answers NaN) on
// a few, up to kSparseLast (it is last, and no longer updated after that).
struct Config {
  int log2m;
  int regwidth;
  bool every_n;
};
constexpr Config kConfigs[] = {{11, 5, true}, {14, 5, true}, {13, 6, false}};
constexpr int kConfigCount = sizeof kConfigs / sizeof kConfigs[0];

// 10^(1 + k/8) for k = 0..48, and c * m for c in {2, 2.5, 3, 3.5, 4, 5, 6}
// and m = 2^11, 2^14, where the peer's estimator switches from linear
// counting to its raw estimate (its estimate passes 2.5 m) and the raw
// estimate's bias is largest; and 60,000.
std::vector<uint64_t> grid() {
  std::vector<uint64_t> n;
  for (int k = 0; k <= 48; k++) {
    n.push_back(static_cast<uint64_t>(std::lround(std::pow(10.0, 1 + k / 8.0))));
  }
  for (const uint64_t m : {uint64_t{1} << 11, uint64_t{1} << 14})
    for (const double c : {2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0})
      n.push_back(static_cast<uint64_t>(c * static_cast<double>(m)));
  n.push_back(60000);  // the case of the peer's NaN (regwidth 6, log2m 13)
  std::sort(n.begin(), n.end());
  n.erase(std::unique(n.begin(), n.end()), n.end());
  return n;
}

constexpr uint64_t kSparseLast = 1000000;

bool sparse_n(uint64_t n) {
  for (const uint64_t s : {uint64_t{1000}, uint64_t{10000}, uint64_t{60000}, uint64_t{100000}, kSparseLast})
    if (n == s) return true;
  return false;
}

void put_be(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; i--) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// One COPY BINARY tuple: the peer's FULL bytes of these registers.
void write_row(std::string* out, const Config& c, const pghll::Params& params, uint64_t n,
               int salt, const std::vector<uint8_t>& registers) {
  const size_t m = registers.size();
  std::vector<uint8_t> full(pghll::kPeerHeaderSize +
                            pghll::detail::bytes_for_bits(m * static_cast<size_t>(c.regwidth)));
  full[0] = 0x10 | static_cast<uint8_t>(pghll::PeerType::kFull);  // version 1, FULL
  full[1] = params.parameter_byte();
  full[2] = params.cutoff_byte();
  for (size_t i = 0; i < m; i++)
    pghll::detail::put_bits(full.data() + pghll::kPeerHeaderSize, i * c.regwidth, c.regwidth,
                            registers[i]);
  put_be(out, 5, 2);
  put_be(out, 4, 4), put_be(out, static_cast<uint64_t>(c.log2m), 4);
  put_be(out, 4, 4), put_be(out, static_cast<uint64_t>(c.regwidth), 4);
  put_be(out, 8, 4), put_be(out, n, 8);
  put_be(out, 4, 4), put_be(out, static_cast<uint64_t>(salt), 4);
  put_be(out, full.size(), 4);
  out->append(reinterpret_cast<const char*>(full.data()), full.size());
}

void run_salt(int salt, const std::vector<uint64_t>& ns, std::string* out) {
  pghll::Params params[kConfigCount];
  std::vector<uint8_t> registers[kConfigCount];
  for (int c = 0; c < kConfigCount; c++) {
    if (!pghll::make_params(kConfigs[c].log2m, kConfigs[c].regwidth, 0, 0, 0, &params[c]).is_ok())
      std::abort();
    registers[c].assign(size_t{1} << kConfigs[c].log2m, 0);
  }
  sketch::test::Random random(static_cast<uint64_t>(salt));
  uint64_t drawn = 0;
  for (const uint64_t n : ns) {
    const int active = n <= kSparseLast ? kConfigCount : kConfigCount - 1;
    for (; drawn < n; drawn++) {
      const uint64_t hash = random.next();
      for (int c = 0; c < active; c++) {
        const pghll::Register r = pghll::register_of(hash, params[c]);
        uint8_t& reg = registers[c][r.index];
        if (r.value > reg) reg = static_cast<uint8_t>(r.value);
      }
    }
    for (int c = 0; c < kConfigCount; c++)
      if (kConfigs[c].every_n || (c < active && sparse_n(n))) write_row(out, kConfigs[c], params[c], n, salt,
                                                        registers[c]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <salts> [threads]\n", argv[0]);
    return 2;
  }
  const int salts = std::atoi(argv[1]);
  const int threads = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2;
  const std::vector<uint64_t> ns = grid();
  std::string header("PGCOPY\n\377\r\n\0", 11);
  put_be(&header, 0, 4);  // flags
  put_be(&header, 0, 4);  // header extension length
  std::fwrite(header.data(), 1, header.size(), stdout);
  for (int first = 1; first <= salts; first += threads) {
    const int count = std::min(threads, salts - first + 1);
    std::vector<std::string> out(static_cast<size_t>(count));
    std::vector<std::thread> workers;
    for (int t = 0; t < count; t++) workers.emplace_back(run_salt, first + t, std::cref(ns), &out[t]);
    for (auto& w : workers) w.join();
    for (const auto& o : out) std::fwrite(o.data(), 1, o.size(), stdout);
  }
  const std::string trailer("\xff\xff", 2);
  std::fwrite(trailer.data(), 1, trailer.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
