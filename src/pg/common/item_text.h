// Items that sketches keep as text: cms's heavy-hitter candidates and
// topk's items.
//
// A sketch identifies an item by the hash of its canonical encoding
// (element_hash.h) and keeps its text only to show it: the type's output
// function under fixed settings (fixed_settings.h), so the same rows give
// the same bytes in every session, clipped at a byte limit on a character
// boundary. Readers give the text back as text, or read it back as the type
// of a hint argument with that type's input function under the same
// settings.
#pragma once

#include "pg/common/aggregate_state.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// What adding values needs beyond the state: the element hasher and the
// value type's output function, built once per call site and kept in
// fn_extra by the callers.
struct ItemSource {
  ElementHasher hasher;
  FmgrInfo output;
  bool output_depends_on_settings;
  // Types whose text the output function would give byte for byte without
  // being called (integers: their decimal digits; text and varchar: their
  // bytes), which saves a function call and an allocation for every item
  // that enters a sketch (a topk of a long-tailed column admits items on a
  // large share of its rows).
  enum class Direct : uint8 { kNone, kInteger, kTextBytes } direct;
};

void init_item_source(FunctionCallInfo fcinfo, int argno, ItemSource* source);

// The value's text, clipped at max_bytes on a character boundary. `bytes`
// points into `digits`, into the value, or into `allocated` (palloc'd, for
// the caller to free; nullptr when nothing was allocated).
struct ItemText {
  const uint8* bytes;
  uint32 len;
  bool clipped;
  char* allocated;
};

constexpr int kItemDigitsBytes = 24;  // "-9223372036854775808" and a NUL

ItemText item_text(const ItemSource* source, Datum value, uint32 max_bytes,
                   char (&digits)[kItemDigitsBytes]);

// The text of a value being added, made only when the sketch asks for it
// (a family's TextSource, which returns the family's Text {bytes, len,
// clipped}); the caller keeps it on its stack for the add and calls
// release() afterwards.
template <class Text, uint32 kMaxBytes>
struct PendingItemText {
  const ItemSource* source;
  Datum value;
  char* allocated = nullptr;
  char digits[kItemDigitsBytes] = {};

  PendingItemText(const ItemSource* s, Datum v) : source(s), value(v) {}

  static Text produce(void* context) {
    auto* self = static_cast<PendingItemText*>(context);
    const ItemText t = item_text(self->source, self->value, kMaxBytes, self->digits);
    self->allocated = t.allocated;
    return Text{t.bytes, t.len, t.clipped};
  }

  void release() {
    if (allocated != nullptr) pfree(allocated);
  }
};

// Turns kept texts back into values: as text, or as the type of the hint
// argument `hint_argno` (-1: none).
struct ItemReader {
  bool typed;
  Oid type;
  FmgrInfo input;
  Oid ioparam;
  bool depends_on_settings;
};

void init_item_reader(FunctionCallInfo fcinfo, int hint_argno, const char* function,
                      ItemReader* reader);

// A clipped text cannot be read as the hint's type: 22023 with a hint to
// read it as text (naming `function`).
Datum read_item(const ItemReader* reader, const uint8* text, uint32 len, bool clipped,
                uint32 max_bytes, const char* function);

// The scalar add of a family that keeps items (cms_add, topk_add):
// (sketch, value [, weight]). NULL sketch -> NULL; NULL value, NULL or zero
// weight -> the sketch unchanged; a negative weight -> ERROR (`kWeight`,
// the family's reading of it). `kAdd` adds to a private working copy and
// makes the value's text only if it enters the sketch.
using WeightArg = bool (*)(FunctionCallInfo fcinfo, int argno, bool int4, uint64* weight);
using ItemAdd = uint8_t* (*)(uint8_t* state, uint64 hash, uint64 weight,
                             const ItemSource* source, Datum value);

template <class States, WeightArg kWeight, ItemAdd kAdd>
Datum add_item(FunctionCallInfo fcinfo, bool int4_weight) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  uint64 weight = 1;
  if (PG_NARGS() > 2 && !kWeight(fcinfo, 2, int4_weight, &weight))
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const ItemSource* source = fn_extra_of<ItemSource>(
      fcinfo, [fcinfo](ItemSource* s) { init_item_source(fcinfo, 1, s); });
  const uint64 hash = hash_element64(&source->hasher, PG_GETARG_DATUM(1));
  uint8_t* state = kAdd(States::take(fcinfo, false), hash, weight, source, PG_GETARG_DATUM(1));
  return States::give(fcinfo, state, false);
}

}  // namespace sketch::pg
