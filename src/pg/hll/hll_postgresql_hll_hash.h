// Which bytes of a value postgresql-hll hashes: the rule of its hll_hash_any
// (hll_hash_smallint, _integer, _bigint, _boolean, _text and _bytea are the
// same rule for their types), for hll_postgresql_hll_add and
// hll_postgresql_hll_agg (docs/migration.md, "Hashing as the peer does").
//
// The peer dispatches on the type's length: 1, 2, 4 or 8 bytes hash the
// Datum's value as that many bytes of memory (little-endian: the machines
// the peer runs on), a varlena its data bytes (detoasted, no header), any
// other fixed length the type's binary send form. Where that answer is not
// a function of the value alone, the type is refused (0A000) instead:
// by-reference values of 1..8 bytes (the peer hashes the pointer),
// C strings (it reads them as a varlena header), name (its send form
// follows client_encoding), and types whose bytes hold an OID that a dump
// and restore renumber or a session assigns (enums, composites and
// records, arrays, ranges, multiranges).
#pragma once

#include <cstdint>

#include "core/common/status.h"  // before the server headers: port.h renames printf
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

enum class PeerValueRule : uint8_t {
  kFixed1,    // bool, "char"
  kFixed2,    // smallint
  kFixed4,    // integer, real, date, oid, ...
  kFixed8,    // bigint, double precision, timestamp, timestamptz, time, ...
  kVarlena,   // text, varchar, bytea, numeric, jsonb, ...
  kSendForm,  // uuid, interval, timetz, macaddr, point, ...
  kCString,   // an untyped literal (unknown): the text it spells, as hll_hash_any('x')
};

struct PeerValueHasher {
  PeerValueRule rule;
  FmgrInfo send;  // kSendForm: the type's send function
};

// The rule for values of `type` (a domain: its base type's), the send
// function looked up into `cxt`; 0A000 naming `function` for a type whose
// hll_hash_any answer is not stable.
void resolve_peer_value_hasher(Oid type, const char* function, MemoryContext cxt,
                               PeerValueHasher* out);

// The 64-bit hash postgresql-hll's hll_hash_any(value, seed) answers.
uint64_t peer_value_hash(PeerValueHasher* hasher, Datum value, int32 seed);

}  // namespace sketch::pg
