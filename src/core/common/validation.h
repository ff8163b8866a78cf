// How much of a sketch's bytes parse() checks, one vocabulary for every
// family.
//
// Bytes come from two kinds of places. External input (text input, recv,
// the bytea casts) can be anything, and is checked completely before any
// function reads it: only stored encodings, and every invariant the
// family's readers rely on. Values our own code made (a column's value read
// back, an aggregate's state) were checked when they came in, so parse only
// checks what keeps a reader inside the buffer: the header and the lengths,
// and it also accepts the family's working encodings.
#pragma once

namespace sketch {

enum class Validation {
  kCanonical,  // external input: every byte checked, stored encodings only
  kStructure,  // our own values and aggregate states: header and lengths
               // (each family says in parse() what else, and at what cost),
               // working encodings too
};

}  // namespace sketch
