#include "pg/common/element_hash.h"

#include <cstring>

#include "core/common/canonical.h"
#include "pg/common/fn_extra.h"

extern "C" {
#include "access/transam.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_proc.h"
#include "nodes/nodeFuncs.h"
#include "utils/date.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
}

namespace sketch::pg {

namespace {

ElementEncoding fast_encoding_for(Oid type) {
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
    case INTERVALOID: return ElementEncoding::kInterval;
    case UNKNOWNOID: return ElementEncoding::kCString;
    default: return ElementEncoding::kSendForm;
  }
}

ElementKind kind_for(Oid base, ElementEncoding encoding) {
  switch (encoding) {
    case ElementEncoding::kInt16:
    case ElementEncoding::kInt32:
    case ElementEncoding::kOid:
    case ElementEncoding::kNumeric: return ElementKind::kNumber;
    case ElementEncoding::kInt64:
      switch (base) {
        case TIMESTAMPOID: return ElementKind::kTimestamp;
        case TIMESTAMPTZOID: return ElementKind::kTimestampTz;
        case TIMEOID: return ElementKind::kTime;
        default: return ElementKind::kNumber;
      }
    case ElementEncoding::kBool: return ElementKind::kBool;
    case ElementEncoding::kDate: return ElementKind::kDate;
    case ElementEncoding::kFloat4:
    case ElementEncoding::kFloat8: return ElementKind::kFloat;
    case ElementEncoding::kVarlenaBytes:
      return base == BYTEAOID ? ElementKind::kBytea : ElementKind::kText;
    case ElementEncoding::kBpchar:
    case ElementEncoding::kName:
    case ElementEncoding::kCString: return ElementKind::kText;
    case ElementEncoding::kUuid: return ElementKind::kUuid;
    case ElementEncoding::kCollatedText:
    case ElementEncoding::kCollatedBpchar:
    case ElementEncoding::kCollatedCString: return ElementKind::kCollatedText;
    case ElementEncoding::kInterval: return ElementKind::kInterval;
    case ElementEncoding::kHashOpclass: return ElementKind::kHashed;
    case ElementEncoding::kSendForm: return ElementKind::kBinary;
    case ElementEncoding::kTextForm: return ElementKind::kTextForm;
  }
  return ElementKind::kUnknown;
}

bool is_text_like(Oid base) {
  return base == TEXTOID || base == VARCHAROID || base == BPCHAROID || base == UNKNOWNOID;
}

// Types hashed through their default hash operator class: jsonb (whose =
// ignores numeric scale and key order, unlike its binary form) and the base
// and range types of extensions (citext, ...), whose = we cannot know.
// Built-in types outside the fast paths keep their binary form, and enums
// and composites too: their hash functions use database-specific OIDs.
bool hashed_by_opclass(Oid base) {
  if (base == JSONBOID) return true;
  if (base < FirstNormalObjectId) return false;
  const char typtype = get_typtype(base);
  return typtype == TYPTYPE_BASE || typtype == TYPTYPE_RANGE || typtype == TYPTYPE_MULTIRANGE;
}

// An implicit binary coercion the parser inserted to reach a declared
// argument type (citext or varchar to a text overload, a domain to its
// base) hides the value's own type: look through it.
Node* strip_implicit_relabel(Node* node) {
  while (node != nullptr && IsA(node, RelabelType) &&
         reinterpret_cast<RelabelType*>(node)->relabelformat == COERCE_IMPLICIT_CAST)
    node = reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(node)->arg);
  return node;
}

// The expression of argument argno (0 = first) of a plain call, or nullptr.
Node* call_arg(Node* expr, int argno) {
  List* args = nullptr;
  if (expr == nullptr) return nullptr;
  if (IsA(expr, FuncExpr)) args = reinterpret_cast<FuncExpr*>(expr)->args;
  if (IsA(expr, OpExpr)) args = reinterpret_cast<OpExpr*>(expr)->args;
  if (args == nullptr || argno >= list_length(args)) return nullptr;
  return static_cast<Node*>(list_nth(args, argno));
}

// In an aggregate's transition function, the aggregate's own argument
// expression for transition argument argno (argument 0 is the state), if
// the Aggref is the one this function serves (a distributed engine may
// call it from inside an aggregate of its own).
Node* aggregate_arg(FunctionCallInfo fcinfo, int argno) {
  if (argno < 1) return nullptr;
  Aggref* aggref = AggGetAggref(fcinfo);
  if (aggref == nullptr) return nullptr;
  HeapTuple tuple = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggref->aggfnoid));
  if (!HeapTupleIsValid(tuple)) return nullptr;
  const Oid transfn = reinterpret_cast<Form_pg_aggregate>(GETSTRUCT(tuple))->aggtransfn;
  ReleaseSysCache(tuple);
  if (transfn != fcinfo->flinfo->fn_oid || argno - 1 >= list_length(aggref->args))
    return nullptr;
  return reinterpret_cast<Node*>(
      static_cast<TargetEntry*>(list_nth(aggref->args, argno - 1))->expr);
}

// The declared type of argument argno, if it is not polymorphic.
Oid declared_arg_type(Oid function, int argno) {
  HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
  if (!HeapTupleIsValid(tuple)) return InvalidOid;
  const Form_pg_proc proc = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tuple));
  Oid type = InvalidOid;
  if (argno < proc->pronargs) type = proc->proargtypes.values[argno];
  ReleaseSysCache(tuple);
  return IsPolymorphicType(type) ? InvalidOid : type;
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

Oid element_arg_type(FunctionCallInfo fcinfo, int argno) {
  // Without a call expression (a distributed engine calling a transition
  // function through an FmgrInfo of its own) the Aggref in reach is the
  // engine's, not ours: skip straight to the declaration.
  if (fcinfo->flinfo->fn_expr == nullptr) return declared_arg_type(fcinfo->flinfo->fn_oid, argno);
  Node* arg = aggregate_arg(fcinfo, argno);
  if (arg == nullptr) arg = call_arg(fcinfo->flinfo->fn_expr, argno);
  if (arg != nullptr) return exprType(strip_implicit_relabel(arg));
  const Oid from_expr = get_fn_expr_argtype(fcinfo->flinfo, argno);
  if (OidIsValid(from_expr)) return from_expr;
  return declared_arg_type(fcinfo->flinfo->fn_oid, argno);
}

namespace {

// The last hasher resolved from a function's declaration. Citus calls a
// transition function through a new FmgrInfo for every row, so fn_extra
// never survives a row there; resolving the declaration again (catalog
// lookups) would cost more than the row. A function's declared argument
// types never change, so (function, argument, collation) fixes the result
// for the fast-path encodings, which need no FmgrInfo of their own.
struct DeclaredHasherCache {
  Oid function = InvalidOid;
  int argno = -1;
  Oid collation = InvalidOid;
  ElementHasher hasher;
};
DeclaredHasherCache declared_cache;

bool needs_convert(ElementEncoding encoding) {
  return encoding == ElementEncoding::kHashOpclass || encoding == ElementEncoding::kSendForm ||
         encoding == ElementEncoding::kTextForm;
}

void resolve_hasher(FunctionCallInfo fcinfo, int argno, ElementHasher* hasher);

}  // namespace

void init_element_hasher(FunctionCallInfo fcinfo, int argno, ElementHasher* hasher) {
  const bool declared_only = fcinfo->flinfo->fn_expr == nullptr;
  if (declared_only && declared_cache.function == fcinfo->flinfo->fn_oid &&
      declared_cache.argno == argno && declared_cache.collation == fcinfo->fncollation) {
    *hasher = declared_cache.hasher;
    return;
  }
  resolve_hasher(fcinfo, argno, hasher);
  if (declared_only && !needs_convert(hasher->encoding)) {
    declared_cache.function = fcinfo->flinfo->fn_oid;
    declared_cache.argno = argno;
    declared_cache.collation = fcinfo->fncollation;
    declared_cache.hasher = *hasher;
  }
}

namespace {

void resolve_hasher(FunctionCallInfo fcinfo, int argno, ElementHasher* hasher) {
  const Oid arg_type = element_arg_type(fcinfo, argno);
  if (!OidIsValid(arg_type))
    ereport(ERROR,
            (errcode(ERRCODE_INDETERMINATE_DATATYPE),
             errmsg("could not determine the type of the value to hash"),
             errdetail("The function was called without its call expression and declares "
                       "the value as a polymorphic type."),
             errhint("Distributed engines call transition functions this way: use an "
                     "aggregate overload with a declared value type, or cast the value to "
                     "one of bigint, numeric, double precision, text, bytea, uuid, date, "
                     "timestamp, timestamptz or boolean.")));
  hasher->type = arg_type;
  hasher->collation = fcinfo->fncollation;
  const Oid base = getBaseType(arg_type);
  hasher->encoding = fast_encoding_for(base);
  if (is_text_like(base) && OidIsValid(hasher->collation) &&
      !get_collation_isdeterministic(hasher->collation))
    hasher->encoding = base == BPCHAROID   ? ElementEncoding::kCollatedBpchar
                       : base == UNKNOWNOID ? ElementEncoding::kCollatedCString
                                            : ElementEncoding::kCollatedText;
  if (hasher->encoding == ElementEncoding::kSendForm && hashed_by_opclass(base)) {
    TypeCacheEntry* entry = lookup_type_cache(base, TYPECACHE_HASH_EXTENDED_PROC_FINFO);
    if (OidIsValid(entry->hash_extended_proc)) {
      fmgr_info_cxt(entry->hash_extended_proc, &hasher->convert, fcinfo->flinfo->fn_mcxt);
      hasher->encoding = ElementEncoding::kHashOpclass;
      // The class's own collation rule: citext compares under the call's
      // collation, or the database default when there is none.
      if (!OidIsValid(hasher->collation)) hasher->collation = get_typcollation(base);
    }
  }
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
  hasher->kind = kind_for(base, hasher->encoding);
}

}  // namespace

void check_value_kind(const uint8* sketch, const ElementHasher* hasher) {
  const ElementKind kind = element_kind_of(sketch);
  if (kind == hasher->kind) return;
  const Status st = check_element_kind(kind, hasher->kind);
  if (!st.is_ok())
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", st.message()),
                    errdetail("The value is of type %s.", format_type_be(hasher->type)),
                    errhint("A sketch answers only for values of the kind it was built from: "
                            "cast the value to that kind (for example 42::bigint or "
                            "'42'::text), or build the sketch from values of this kind.")));
}

ElementHasher* element_hasher(FunctionCallInfo fcinfo, int argno) {
  // A call site's argument types never change, so after the first row this
  // is one load and one branch.
  return fn_extra_of<ElementHasher>(fcinfo, [fcinfo, argno](ElementHasher* hasher) {
    init_element_hasher(fcinfo, argno, hasher);
  });
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
    case ElementEncoding::kCString: {
      // A quoted literal (type unknown) arrives as a C string: hashed as the
      // text it spells.
      const char* text = DatumGetCString(value);
      out->data = text;
      out->len = std::strlen(text);
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
    case ElementEncoding::kCollatedText:
    case ElementEncoding::kCollatedBpchar:
    case ElementEncoding::kCollatedCString: {
      // The collation's own hash: equal under the collation exactly when
      // equal here (for ICU, the hash of the sort key). A literal is hashed
      // as the text it spells.
      const PGFunction hash = hasher->encoding == ElementEncoding::kCollatedBpchar
                                  ? hashbpcharextended
                                  : hashtextextended;
      const Datum text = hasher->encoding == ElementEncoding::kCollatedCString
                             ? PointerGetDatum(cstring_to_text(DatumGetCString(value)))
                             : value;
      set_int64(out, DatumGetInt64(DirectFunctionCall2Coll(hash, hasher->collation, text,
                                                           Int64GetDatum(0))));
      return;
    }
    case ElementEncoding::kInterval: {
      // interval = compares the span with months of 30 days and days of 24
      // hours ('1 mon' = '30 days', '1 day' = '24 hours'): hash that span.
      const Interval* iv = DatumGetIntervalP(value);
      const __int128 span =
          static_cast<__int128>(iv->time) +
          (static_cast<__int128>(iv->day) + static_cast<__int128>(iv->month) * DAYS_PER_MONTH) *
              USECS_PER_DAY;
      encode_int64(static_cast<int64>(span), out->scratch);
      encode_int64(static_cast<int64>(span >> 64), out->scratch + 8);
      out->data = out->scratch;
      out->len = 16;
      return;
    }
    case ElementEncoding::kHashOpclass:
      set_int64(out, DatumGetInt64(FunctionCall2Coll(const_cast<FmgrInfo*>(&hasher->convert),
                                                     hasher->collation, value,
                                                     Int64GetDatum(0))));
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
