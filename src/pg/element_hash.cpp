#include "pg/element_hash.h"

#include <cstring>

#include "core/canonical.h"

extern "C" {
#include "utils/date.h"
#include "utils/timestamp.h"
}

namespace sketch::pg {

namespace {

ElementEncoding encoding_for(Oid type) {
  switch (type) {
    case INT2OID: return ElementEncoding::kInt16;
    case INT4OID: return ElementEncoding::kInt32;
    case INT8OID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID:
    case TIMEOID: return ElementEncoding::kInt64;
    case BOOLOID: return ElementEncoding::kBool;
    case OIDOID: return ElementEncoding::kOid;
    case DATEOID: return ElementEncoding::kDate;
    case FLOAT4OID: return ElementEncoding::kFloat4;
    case FLOAT8OID: return ElementEncoding::kFloat8;
    case NUMERICOID: return ElementEncoding::kNumeric;
    case TEXTOID:
    case VARCHAROID:
    case BYTEAOID: return ElementEncoding::kVarlenaBytes;
    case BPCHAROID: return ElementEncoding::kBpchar;
    case NAMEOID: return ElementEncoding::kName;
    case UUIDOID: return ElementEncoding::kUuid;
    default: return ElementEncoding::kSendForm;
  }
}

void set_int64(ElementBytes* out, int64 value) {
  encode_int64(value, out->scratch);
  out->data = out->scratch;
  out->len = kCanonicalScalarSize;
}

void set_double(ElementBytes* out, double value) {
  encode_double(value, out->scratch);
  out->data = out->scratch;
  out->len = kCanonicalScalarSize;
}

// "-123" style text that fits an int64, as numeric_normalize prints integers.
bool parse_integral(const char* text, int64* value) {
  const char* digits = text[0] == '-' ? text + 1 : text;
  if (*digits == '\0' || std::strlen(digits) > 19) return false;
  for (const char* c = digits; *c; c++)
    if (*c < '0' || *c > '9') return false;
  uint64 magnitude = 0;
  for (const char* c = digits; *c; c++) magnitude = magnitude * 10 + uint64(*c - '0');
  const bool negative = text[0] == '-';
  if (magnitude > (negative ? uint64{1} << 63 : (uint64{1} << 63) - 1)) return false;
  *value = negative ? static_cast<int64>(0 - magnitude) : static_cast<int64>(magnitude);
  return true;
}

}  // namespace

void init_element_hasher(FunctionCallInfo fcinfo, int argno, ElementHasher* hasher) {
  const Oid arg_type = get_fn_expr_argtype(fcinfo->flinfo, argno);
  if (!OidIsValid(arg_type))
    ereport(ERROR, (errcode(ERRCODE_INDETERMINATE_DATATYPE),
                    errmsg("could not determine the type of the value to hash")));
  hasher->type = arg_type;
  const Oid base = getBaseType(arg_type);
  hasher->encoding = encoding_for(base);
  if (hasher->encoding == ElementEncoding::kSendForm) {
    int16 typlen;
    bool typbyval;
    char typalign, typdelim;
    Oid typioparam, send;
    get_type_io_data(base, IOFunc_send, &typlen, &typbyval, &typalign, &typdelim, &typioparam,
                     &send);
    if (OidIsValid(send)) {
      fmgr_info_cxt(send, &hasher->convert, fcinfo->flinfo->fn_mcxt);
    } else {
      Oid output;
      bool is_varlena;
      getTypeOutputInfo(base, &output, &is_varlena);
      fmgr_info_cxt(output, &hasher->convert, fcinfo->flinfo->fn_mcxt);
      hasher->encoding = ElementEncoding::kTextForm;
    }
  }
}

ElementHasher* element_hasher(FunctionCallInfo fcinfo, int argno) {
  // A call site's argument types never change, so after the first row this
  // is one load and one branch.
  auto* cached = static_cast<ElementHasher*>(fcinfo->flinfo->fn_extra);
  if (cached != nullptr) return cached;
  auto* hasher = static_cast<ElementHasher*>(
      MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ElementHasher)));
  init_element_hasher(fcinfo, argno, hasher);
  fcinfo->flinfo->fn_extra = hasher;
  return hasher;
}

void element_bytes(const ElementHasher* hasher, Datum value, ElementBytes* out) {
  switch (hasher->encoding) {
    case ElementEncoding::kInt16: set_int64(out, DatumGetInt16(value)); return;
    case ElementEncoding::kInt32: set_int64(out, DatumGetInt32(value)); return;
    case ElementEncoding::kInt64: set_int64(out, DatumGetInt64(value)); return;
    case ElementEncoding::kBool: set_int64(out, DatumGetBool(value) ? 1 : 0); return;
    case ElementEncoding::kOid: set_int64(out, DatumGetObjectId(value)); return;
    case ElementEncoding::kDate: set_int64(out, DatumGetDateADT(value)); return;
    case ElementEncoding::kFloat4: set_double(out, DatumGetFloat4(value)); return;
    case ElementEncoding::kFloat8: set_double(out, DatumGetFloat8(value)); return;
    case ElementEncoding::kNumeric: {
      char* text = numeric_normalize(DatumGetNumeric(value));
      int64 integral;
      if (parse_integral(text, &integral)) {
        set_int64(out, integral);
      } else {
        out->data = text;
        out->len = std::strlen(text);
      }
      return;
    }
    case ElementEncoding::kVarlenaBytes: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      out->data = VARDATA_ANY(v);
      out->len = VARSIZE_ANY_EXHDR(v);
      return;
    }
    case ElementEncoding::kBpchar: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      const char* data = VARDATA_ANY(v);
      size_t len = VARSIZE_ANY_EXHDR(v);
      while (len > 0 && data[len - 1] == ' ') len--;
      out->data = data;
      out->len = len;
      return;
    }
    case ElementEncoding::kName: {
      const char* name = NameStr(*DatumGetName(value));
      out->data = name;
      out->len = std::strlen(name);
      return;
    }
    case ElementEncoding::kUuid:
      out->data = DatumGetUUIDP(value)->data;
      out->len = UUID_LEN;
      return;
    case ElementEncoding::kSendForm: {
      bytea* sent = SendFunctionCall(const_cast<FmgrInfo*>(&hasher->convert), value);
      out->data = VARDATA(sent);
      out->len = VARSIZE(sent) - VARHDRSZ;
      return;
    }
    case ElementEncoding::kTextForm: {
      char* text = OutputFunctionCall(const_cast<FmgrInfo*>(&hasher->convert), value);
      out->data = text;
      out->len = std::strlen(text);
      return;
    }
  }
}

}  // namespace sketch::pg
