// Register-wise max of two packed dense register arrays: the hot loop of
// every dense hll union (a GROUP BY day over 720 stored hourly sketches is
// 720 of these over 12 KiB each, and nothing else of comparable cost).
//
// Registers stay packed (6 bits each, register i at bit 6i, see
// hll_internal.h): the union's working state is the stored dense layout, so
// neither side is unpacked. Eight registers (6 bytes) sit in the low 48 bits
// of a 64-bit lane, and one branch-free SWAR step takes the max of all eight
// at once: the even and the odd registers are spread into 12-bit slots,
// where a guard bit above each 6-bit value turns one subtraction into eight
// independent comparisons. The SSE2 path runs it on two lanes (16 registers)
// per step, the AVX2 path on four (32 registers); the scalar path on one, on
// any CPU. All paths give the same bytes; test/unit/hll/hll_register_max_test
// checks them against each other and against a register-by-register max.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sketch::hll::detail {

enum class MaxPath : uint8_t { kScalar, kSse2, kAvx2 };

const char* max_path_name(MaxPath path);

// Whether this build and this CPU can run the path (kScalar always can).
bool max_path_available(MaxPath path);

// The fastest available path, chosen once per process from the CPU's
// features (never from a setting: every backend and parallel worker of one
// server picks the same, and all give the same bytes anyway).
MaxPath best_max_path();

// dst = max(dst, src) register by register, over `groups` 3-byte groups of
// 4 registers (m / 4 for m registers). Touches exactly 3 * groups bytes of
// each buffer. dst and src are either the same buffer or do not overlap.
// Any byte values are fine: a register is 6 bits, whatever they hold.
void max_packed_registers(uint8_t* dst, const uint8_t* src, size_t groups);

// The same with a given path, which must be available (for tests).
void max_packed_registers_with(MaxPath path, uint8_t* dst, const uint8_t* src, size_t groups);

}  // namespace sketch::hll::detail
