// Little-endian loads and stores over unaligned byte buffers.
//
// Every on-disk sketch format is little-endian whatever the CPU, so that a
// sketch written on one server reads the same on any other. memcpy keeps the
// accesses legal on unaligned data; compilers turn it into one mov.
#pragma once

#include <cstdint>
#include <cstring>

namespace sketch {

inline bool host_is_little_endian() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

inline uint32_t load_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return host_is_little_endian() ? v : __builtin_bswap32(v);
}

inline uint64_t load_le64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return host_is_little_endian() ? v : __builtin_bswap64(v);
}

inline void store_le32(uint8_t* p, uint32_t v) {
  if (!host_is_little_endian()) v = __builtin_bswap32(v);
  std::memcpy(p, &v, sizeof v);
}

inline void store_le64(uint8_t* p, uint64_t v) {
  if (!host_is_little_endian()) v = __builtin_bswap64(v);
  std::memcpy(p, &v, sizeof v);
}

}  // namespace sketch
