// postgresql-hll's hll_hash_any rule (hll_postgresql_hll_hash.h).
#include "pg/hll/hll_postgresql_hll_hash.h"

#include <cstring>

#include "core/common/bytes.h"
#include "core/common/murmur3.h"

namespace sketch::pg {

namespace {

uint64_t hash_bytes(const void* data, size_t len, int32 seed) {
  return murmur3_x64_128(data, len, static_cast<uint32_t>(seed)).h1;
}

// Why the peer's hll_hash_any answer for values of `base` is not a function
// of the value alone, or nullptr when it is.
const char* unstable_reason(Oid base, int16 typlen, bool byval) {
  const char typtype = get_typtype(base);
  if (base == RECORDOID || typtype == TYPTYPE_COMPOSITE)
    return "a row's bytes hold its type's OID and, for an anonymous record, a type modifier "
           "the session assigns";
  if (typtype == TYPTYPE_ENUM)
    return "an enum value is the OID of its label, which a dump and restore renumber";
  if (typtype == TYPTYPE_RANGE || typtype == TYPTYPE_MULTIRANGE)
    return "a range's bytes hold its type's OID";
  if (typtype == TYPTYPE_PSEUDO) return "it is a pseudo-type";
  if (OidIsValid(get_element_type(base))) return "an array's bytes hold its element type's OID";
  if (typlen == -2) return "postgresql-hll reads a C string as if it had a varlena header";
  if ((typlen == 1 || typlen == 2 || typlen == 4 || typlen == 8) && !byval)
    return "postgresql-hll hashes the pointer to a by-reference value of that length";
  if (base == NAMEOID) return "postgresql-hll hashes its send form, which follows client_encoding";
  return nullptr;
}

}  // namespace

void resolve_peer_value_hasher(Oid type, const char* function, MemoryContext cxt,
                               PeerValueHasher* out) {
  const Oid base = getBaseType(type);
  if (base == UNKNOWNOID) {
    out->rule = PeerValueRule::kCString;
    return;
  }
  int16 typlen;
  bool byval;
  get_typlenbyval(base, &typlen, &byval);
  if (const char* why = unstable_reason(base, typlen, byval))
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s cannot hash values of type %s as postgresql-hll's hll_hash_any "
                           "does", function, format_type_be(type)),
                    errdetail("hll_hash_any's answer for that type is not stable: %s.", why),
                    errhint("Hash a stable form of the value, as the peer's call would have to "
                            "(for example v::text, as hll_hash_text(v::text)).")));
  switch (typlen) {
    case 1: out->rule = PeerValueRule::kFixed1; return;
    case 2: out->rule = PeerValueRule::kFixed2; return;
    case 4: out->rule = PeerValueRule::kFixed4; return;
    case 8: out->rule = PeerValueRule::kFixed8; return;
    case -1: out->rule = PeerValueRule::kVarlena; return;
    default: {
      Oid send;
      bool is_varlena;
      getTypeBinaryOutputInfo(base, &send, &is_varlena);  // 42883 when the type has none
      fmgr_info_cxt(send, &out->send, cxt);
      out->rule = PeerValueRule::kSendForm;
      return;
    }
  }
}

uint64_t peer_value_hash(PeerValueHasher* hasher, Datum value, int32 seed) {
  uint8_t le[8];
  switch (hasher->rule) {
    case PeerValueRule::kFixed1:
      le[0] = static_cast<uint8_t>(DatumGetChar(value));
      return hash_bytes(le, 1, seed);
    case PeerValueRule::kFixed2: {
      const uint16_t v = static_cast<uint16_t>(DatumGetInt16(value));
      le[0] = static_cast<uint8_t>(v);
      le[1] = static_cast<uint8_t>(v >> 8);
      return hash_bytes(le, 2, seed);
    }
    case PeerValueRule::kFixed4:
      store_le32(le, static_cast<uint32_t>(DatumGetInt32(value)));
      return hash_bytes(le, 4, seed);
    case PeerValueRule::kFixed8:
      store_le64(le, static_cast<uint64_t>(DatumGetInt64(value)));
      return hash_bytes(le, 8, seed);
    case PeerValueRule::kVarlena: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      return hash_bytes(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), seed);
    }
    case PeerValueRule::kSendForm: {
      bytea* sent = SendFunctionCall(&hasher->send, value);
      const uint64_t h = hash_bytes(VARDATA(sent), VARSIZE(sent) - VARHDRSZ, seed);
      pfree(sent);
      return h;
    }
    case PeerValueRule::kCString: {
      const char* s = DatumGetCString(value);
      return hash_bytes(s, std::strlen(s), seed);
    }
  }
  return 0;
}

}  // namespace sketch::pg
