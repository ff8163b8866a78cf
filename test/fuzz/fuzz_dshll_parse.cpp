// Fuzz target: DataSketches HLL bytes as hll_from_datasketches reads them
// (core/hll/dshll_codec.h). What parse accepts must read back (registers or
// table), re-encode to bytes parse accepts and that re-encode to themselves,
// and take further coupons as the library would (dshll_update.h) into bytes
// parse accepts again; what it refuses is refused with a message, never a
// memory error.
#include <cstring>
#include <vector>

#include "core/hll/dshll_codec.h"
#include "core/hll/dshll_update.h"
#include "fuzz_check.h"

namespace {

using namespace sketch;
using namespace sketch::fuzz;
using namespace sketch::hll::dshll;

Bytes encode(const Model& m) {
  Bytes out(compact_size(m));
  write_compact(m, out.data());
  return out;
}

Parsed parse_or_abort(const Bytes& b) {
  Parsed p;
  const Status st = parse(b.data(), b.size(), &p);
  if (!st.is_ok()) std::fprintf(stderr, "re-encoded bytes refused: %s\n", st.message());
  FUZZ_CHECK(st.is_ok());
  return p;
}

Bytes reencode(const Parsed& p) {
  std::vector<uint32_t> slots(size_t{1} << (p.mode == Mode::kHll ? 0 : p.lg_arr));
  std::vector<uint8_t> regs(size_t{1} << p.lg_k);
  if (p.mode == Mode::kHll) read_registers(p, regs.data());
  else read_table(p, slots.data());
  return encode(Model{p.lg_k, p.type, p.mode, p.lg_arr, p.count, slots.data(), regs.data(),
                      p.hip_accum, p.kxq0, p.kxq1, p.out_of_order});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Bytes input = copy_of(data, size);
  Parsed p;
  const Status st = parse(input.data(), input.size(), &p);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kInvalidFormat && std::strlen(st.message()) > 0);
    return 0;
  }
  const Bytes once = reencode(p);
  const Parsed again = parse_or_abort(once);
  FUZZ_CHECK(reencode(again) == once);

  std::vector<uint32_t> slots(builder_slots(p.lg_k)), scratch(builder_slots(p.lg_k));
  std::vector<uint8_t> regs(size_t{1} << p.lg_k);
  Builder b{p.lg_k, Mode::kList, 0, 0, slots.data(), scratch.data(), regs.data(), 0, 0, 0};
  adopt(&b, p);
  // A few coupons derived from the input, valid by construction.
  uint32_t x = 2166136261u;
  for (size_t i = 0; i < size && i < 64; i++) {
    x = (x ^ input[i]) * 16777619u;
    add_coupon(&b, (1 + x % 63) << 26 | (x >> 6));
  }
  parse_or_abort(encode(model_of(b, p.type, p.out_of_order)));
  return 0;
}
