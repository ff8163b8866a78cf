#include "pg/common/fixed_settings.h"

extern "C" {
#include "catalog/pg_type_d.h"
#include "utils/guc.h"
}

namespace sketch::pg {

namespace {

struct Setting {
  const char* name;
  const char* value;
};

constexpr Setting kFixed[] = {
    {"DateStyle", "ISO, MDY"},     {"TimeZone", "UTC"},     {"IntervalStyle", "postgres"},
    {"extra_float_digits", "1"},   {"bytea_output", "hex"}, {"lc_monetary", "C"},
};

// Sets the fixed values in a new GUC nest level; the caller pops it with
// AtEOXact_GUC. An ERROR in between is cleaned up by the transaction abort.
int push_fixed_settings() {
  const int level = NewGUCNestLevel();
  for (const Setting& s : kFixed)
    (void)set_config_option(s.name, s.value, PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true,
                            0, false);
  return level;
}

}  // namespace

bool text_depends_on_settings(Oid type) {
  switch (type) {
    case BOOLOID:
    case CHAROID:
    case NAMEOID:
    case INT2OID:
    case INT4OID:
    case INT8OID:
    case OIDOID:
    case TEXTOID:
    case VARCHAROID:
    case BPCHAROID:
    case NUMERICOID:
    case UUIDOID:
    case JSONOID:
    case JSONBOID:
    case INETOID:
    case CIDROID:
    case MACADDROID:
      return false;
    default:
      return true;
  }
}

char* output_with_fixed_settings(FmgrInfo* output, Datum value, bool depends_on_settings) {
  if (!depends_on_settings) return OutputFunctionCall(output, value);
  const int level = push_fixed_settings();
  char* text = OutputFunctionCall(output, value);
  AtEOXact_GUC(true, level);
  return text;
}

Datum input_with_fixed_settings(FmgrInfo* input, char* text, Oid ioparam, int32 typmod,
                                bool depends_on_settings) {
  if (!depends_on_settings) return InputFunctionCall(input, text, ioparam, typmod);
  const int level = push_fixed_settings();
  const Datum value = InputFunctionCall(input, text, ioparam, typmod);
  AtEOXact_GUC(true, level);
  return value;
}

}  // namespace sketch::pg
