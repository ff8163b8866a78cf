// The libraries' update() rules for SQL values (datasketches_value.h).
#include "pg/common/datasketches_value.h"

#include <cstring>

#include "core/common/datasketches_hash.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace sketch::pg {

namespace {

// update(String) of text in the server encoding: the libraries hash UTF-8.
bool hash_text(const char* data, size_t len, Murmur3Hash* out) {
  if (len == 0) return false;  // update("") is ignored by the libraries
  const char* utf8 = pg_server_to_any(data, static_cast<int>(len), PG_UTF8);
  const size_t utf8_len = utf8 == data ? len : std::strlen(utf8);
  *out = datasketches::hash_bytes(utf8, utf8_len);
  if (utf8 != data) pfree(const_cast<char*>(utf8));
  return true;
}

}  // namespace

DatasketchesRule resolve_datasketches_rule(Oid type, const char* function) {
  switch (getBaseType(type)) {
    case INT2OID: return DatasketchesRule::kInt2;
    case INT4OID: return DatasketchesRule::kInt4;
    case INT8OID: return DatasketchesRule::kLong;
    case FLOAT4OID: return DatasketchesRule::kFloat4;
    case FLOAT8OID: return DatasketchesRule::kDouble;
    case BYTEAOID: return DatasketchesRule::kBytes;
    case TEXTOID:
    case VARCHAROID: return DatasketchesRule::kText;
    case BPCHAROID: return DatasketchesRule::kBpchar;
    case NAMEOID: return DatasketchesRule::kName;
    case UNKNOWNOID: return DatasketchesRule::kCString;
    default: break;
  }
  ereport(ERROR,
          (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
           errmsg("%s cannot hash values of type %s as Apache DataSketches does",
                  function, format_type_be(type)),
           errdetail("The DataSketches libraries hash integers (as a long), floating-point "
                     "numbers (as a double), strings (as UTF-8) and byte arrays only."),
           errhint("Cast the value to bigint, double precision, text or bytea, as the "
                   "program that feeds the library would convert it.")));
  return DatasketchesRule::kBytes;
}

namespace {

struct ValueSite {
  bool resolved;
  DatasketchesRule rule;
};

}  // namespace

DatasketchesRule datasketches_site_rule(FunctionCallInfo fcinfo, const char* function) {
  ValueSite* site = fn_extra_of<ValueSite>(fcinfo);
  if (unlikely(!site->resolved)) {
    const Oid type = element_arg_type(fcinfo, 1);
    if (!OidIsValid(type))
      ereport(ERROR, (errcode(ERRCODE_INDETERMINATE_DATATYPE),
                      errmsg("could not determine the type of the value to hash")));
    site->rule = resolve_datasketches_rule(type, function);
    site->resolved = true;
  }
  return site->rule;
}

ElementKind datasketches_kind(DatasketchesRule rule) {
  switch (rule) {
    case DatasketchesRule::kLong:
    case DatasketchesRule::kInt2:
    case DatasketchesRule::kInt4: return ElementKind::kDatasketchesLong;
    case DatasketchesRule::kDouble:
    case DatasketchesRule::kFloat4: return ElementKind::kDatasketchesDouble;
    case DatasketchesRule::kBytes:
    case DatasketchesRule::kText:
    case DatasketchesRule::kBpchar:
    case DatasketchesRule::kName:
    case DatasketchesRule::kCString: break;
  }
  return ElementKind::kDatasketchesBytes;
}

bool datasketches_value_hash(DatasketchesRule rule, Datum value, Murmur3Hash* out) {
  switch (rule) {
    case DatasketchesRule::kLong: *out = datasketches::hash_long(DatumGetInt64(value)); return true;
    case DatasketchesRule::kInt4: *out = datasketches::hash_long(DatumGetInt32(value)); return true;
    case DatasketchesRule::kInt2: *out = datasketches::hash_long(DatumGetInt16(value)); return true;
    case DatasketchesRule::kDouble:
      *out = datasketches::hash_double(DatumGetFloat8(value));
      return true;
    case DatasketchesRule::kFloat4:
      *out = datasketches::hash_double(static_cast<double>(DatumGetFloat4(value)));
      return true;
    case DatasketchesRule::kBytes: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      const size_t len = VARSIZE_ANY_EXHDR(v);
      if (len == 0) return false;  // update() of an empty array is ignored
      *out = datasketches::hash_bytes(VARDATA_ANY(v), len);
      return true;
    }
    case DatasketchesRule::kText: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      return hash_text(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), out);
    }
    case DatasketchesRule::kBpchar: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      const char* data = VARDATA_ANY(v);
      size_t len = VARSIZE_ANY_EXHDR(v);
      while (len > 0 && data[len - 1] == ' ') len--;
      return hash_text(data, len, out);
    }
    case DatasketchesRule::kName: {
      const char* s = NameStr(*DatumGetName(value));
      return hash_text(s, strnlen(s, NAMEDATALEN), out);
    }
    case DatasketchesRule::kCString: {
      const char* s = DatumGetCString(value);
      return hash_text(s, std::strlen(s), out);
    }
  }
  return false;
}

}  // namespace sketch::pg
