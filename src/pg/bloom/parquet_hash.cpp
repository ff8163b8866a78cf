#include "pg/bloom/parquet_hash.h"

#include <cmath>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/xxh64.h"

extern "C" {
#include "utils/date.h"
#include "utils/timestamp.h"
}

namespace sketch::pg {

namespace {

// 1970-01-01 in PostgreSQL's day and microsecond counts from 2000-01-01.
constexpr int32 kUnixEpochDays = 10957;
constexpr int64 kUnixEpochMicros = INT64CONST(946684800000000);

ParquetSource source_for(Oid base) {
  switch (base) {
    case INT2OID: return ParquetSource::kInt16;
    case INT4OID: return ParquetSource::kInt32;
    case DATEOID: return ParquetSource::kDate;
    case INT8OID: return ParquetSource::kInt64;
    case TIMESTAMPOID:
    case TIMESTAMPTZOID: return ParquetSource::kTimestamp;
    case FLOAT4OID: return ParquetSource::kFloat4;
    case FLOAT8OID: return ParquetSource::kFloat8;
    case TEXTOID:
    case VARCHAROID:
    case BYTEAOID: return ParquetSource::kVarlenaBytes;
    case BPCHAROID: return ParquetSource::kBpchar;
    case NAMEOID: return ParquetSource::kName;
    case UNKNOWNOID: return ParquetSource::kCString;
    case UUIDOID: return ParquetSource::kUuid;
    default: return ParquetSource::kUnsupported;
  }
}

ElementKind kind_for(ParquetSource source) {
  switch (source) {
    case ParquetSource::kInt16:
    case ParquetSource::kInt32:
    case ParquetSource::kDate: return ElementKind::kParquetInt32;
    case ParquetSource::kInt64:
    case ParquetSource::kTimestamp: return ElementKind::kParquetInt64;
    case ParquetSource::kFloat4: return ElementKind::kParquetFloat;
    case ParquetSource::kFloat8: return ElementKind::kParquetDouble;
    case ParquetSource::kVarlenaBytes:
    case ParquetSource::kBpchar:
    case ParquetSource::kName:
    case ParquetSource::kCString: return ElementKind::kParquetByteArray;
    case ParquetSource::kUuid: return ElementKind::kParquetFixed16;
    case ParquetSource::kUnsupported: break;
  }
  return ElementKind::kNone;
}

pg_noinline void report_infinite(const ParquetHasher* hasher) {
  ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                  errmsg("an infinite or out-of-range %s has no Parquet value",
                         format_type_be(hasher->type))));
}

inline uint64 hash_bytes(const void* data, size_t len) { return xxh64(data, len, 0); }

inline uint64 hash_int32(int32 v) {
  uint8 b[4];
  store_le32(b, static_cast<uint32>(v));
  return hash_bytes(b, 4);
}

inline uint64 hash_int64(int64 v) {
  uint8 b[8];
  store_le64(b, static_cast<uint64>(v));
  return hash_bytes(b, 8);
}

// FLOAT and DOUBLE are PLAIN-encoded as their IEEE 754 bits, little-endian:
// the INT32 and INT64 encodings of those bits.
inline uint64 hash_float(float v) {
  uint32 bits;
  std::memcpy(&bits, &v, 4);
  return hash_int32(static_cast<int32>(bits));
}

inline uint64 hash_double(double v) {
  uint64 bits;
  std::memcpy(&bits, &v, 8);
  return hash_int64(static_cast<int64>(bits));
}

}  // namespace

void init_parquet_hasher(FunctionCallInfo fcinfo, int argno, ParquetHasher* hasher) {
  const Oid arg_type = element_arg_type(fcinfo, argno);
  if (!OidIsValid(arg_type))
    ereport(ERROR, (errcode(ERRCODE_INDETERMINATE_DATATYPE),
                    errmsg("could not determine the type of the value to hash")));
  const Oid base = getBaseType(arg_type);
  hasher->type = base;
  hasher->source = source_for(base);
  hasher->kind = kind_for(hasher->source);
  if (hasher->source == ParquetSource::kUnsupported)
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("a split-block bloom filter cannot hold values of type %s",
                    format_type_be(arg_type)),
             errhint("Split-block filters hash values as Parquet does, by physical type: "
                     "smallint, integer and date (INT32), bigint, timestamp and timestamptz "
                     "(INT64), real (FLOAT), double precision (DOUBLE), text, varchar and "
                     "bytea (BYTE_ARRAY), uuid (FIXED_LEN_BYTE_ARRAY). Cast the value to one "
                     "of these, or use the classic layout.")));
}

ElementKind parquet_target_kind(const ParquetHasher* hasher, ElementKind filter_kind) {
  const ElementKind own = hasher->kind;
  if (filter_kind == own || filter_kind == ElementKind::kNone) return own;
  const bool ints = (own == ElementKind::kParquetInt32 || own == ElementKind::kParquetInt64) &&
                    (filter_kind == ElementKind::kParquetInt32 ||
                     filter_kind == ElementKind::kParquetInt64);
  const bool floats =
      (own == ElementKind::kParquetFloat || own == ElementKind::kParquetDouble) &&
      (filter_kind == ElementKind::kParquetFloat || filter_kind == ElementKind::kParquetDouble);
  // Dates and timestamps are INT32 and INT64 too, but converting them to
  // the other width would give a number of another unit: only plain integers
  // are converted.
  const bool plain_int = hasher->source == ParquetSource::kInt16 ||
                         hasher->source == ParquetSource::kInt32 ||
                         hasher->source == ParquetSource::kInt64;
  if ((ints && plain_int) || floats) return filter_kind;
  ereport(ERROR,
          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
           errmsg("the split-block filter holds %s and cannot take or be probed with %s",
                  element_kind_name(filter_kind), element_kind_name(own)),
           errdetail("The value is of type %s.", format_type_be(hasher->type)),
           errhint("Cast the value to a type of the filter's physical type (see "
                   "bloom_info(filter)->>'physical_type').")));
  return own;
}

bool parquet_hash(const ParquetHasher* hasher, Datum value, ElementKind target,
                  sketch::Hash128* out) {
  uint64 h = 0;
  switch (hasher->source) {
    case ParquetSource::kInt16:
    case ParquetSource::kInt32:
    case ParquetSource::kInt64: {
      const int64 v = hasher->source == ParquetSource::kInt16   ? DatumGetInt16(value)
                      : hasher->source == ParquetSource::kInt32 ? DatumGetInt32(value)
                                                                : DatumGetInt64(value);
      if (target == ElementKind::kParquetInt64) {
        h = hash_int64(v);
      } else {
        if (v < PG_INT32_MIN || v > PG_INT32_MAX) return false;
        h = hash_int32(static_cast<int32>(v));
      }
      break;
    }
    case ParquetSource::kDate: {
      const DateADT d = DatumGetDateADT(value);
      if (DATE_NOT_FINITE(d)) report_infinite(hasher);
      h = hash_int32(d + kUnixEpochDays);
      break;
    }
    case ParquetSource::kTimestamp: {
      const int64 t = DatumGetInt64(value);
      int64 micros;
      if (TIMESTAMP_NOT_FINITE(t) || __builtin_add_overflow(t, kUnixEpochMicros, &micros))
        report_infinite(hasher);
      h = hash_int64(micros);
      break;
    }
    case ParquetSource::kFloat4:
    case ParquetSource::kFloat8: {
      const double v = hasher->source == ParquetSource::kFloat4 ? DatumGetFloat4(value)
                                                                : DatumGetFloat8(value);
      if (target == ElementKind::kParquetDouble) {
        h = hash_double(v);
      } else {
        const float f = static_cast<float>(v);
        if (!(static_cast<double>(f) == v) && !std::isnan(v)) return false;
        h = hash_float(f);
      }
      break;
    }
    case ParquetSource::kVarlenaBytes: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      h = hash_bytes(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
      break;
    }
    case ParquetSource::kBpchar: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      const char* data = VARDATA_ANY(v);
      size_t len = VARSIZE_ANY_EXHDR(v);
      while (len > 0 && data[len - 1] == ' ') len--;
      h = hash_bytes(data, len);
      break;
    }
    case ParquetSource::kName: {
      const char* name = NameStr(*DatumGetName(value));
      h = hash_bytes(name, std::strlen(name));
      break;
    }
    case ParquetSource::kCString: {
      const char* text = DatumGetCString(value);
      h = hash_bytes(text, std::strlen(text));
      break;
    }
    case ParquetSource::kUuid:
      h = hash_bytes(DatumGetUUIDP(value)->data, UUID_LEN);
      break;
    case ParquetSource::kUnsupported:
      return false;
  }
  *out = sketch::Hash128{h, 0};
  return true;
}

void report_unrepresentable(const ParquetHasher* hasher, ElementKind target) {
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("the %s value is not a Parquet %s value",
                         format_type_be(hasher->type), element_kind_label(target)),
                  errdetail("The split-block filter holds %s.", element_kind_name(target))));
}

ElementKind parquet_kind_named(const char* name) {
  static const ElementKind kinds[] = {
      ElementKind::kParquetInt32, ElementKind::kParquetInt64, ElementKind::kParquetFloat,
      ElementKind::kParquetDouble, ElementKind::kParquetByteArray, ElementKind::kParquetFixed16};
  for (ElementKind kind : kinds)
    if (pg_strcasecmp(name, element_kind_label(kind)) == 0) return kind;
  ereport(ERROR,
          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
           errmsg("unknown Parquet physical type \"%s\"", name),
           errhint("A Parquet bloom filter's column is one of INT32, INT64, FLOAT, DOUBLE, "
                   "BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY (16 bytes: uuid); BOOLEAN and INT96 "
                   "columns have no bloom filters here.")));
  return ElementKind::kNone;
}

}  // namespace sketch::pg
