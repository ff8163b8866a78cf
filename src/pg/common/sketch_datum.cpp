#include "pg/common/sketch_datum.h"

#include <cstring>

#include "core/common/hex.h"
#include "pg/common/report.h"

extern "C" {
#include "utils/memutils.h"
}

namespace sketch::pg {

struct varlena* new_sketch(size_t len) {
  auto* v = static_cast<struct varlena*>(palloc0(VARHDRSZ + len));
  SET_VARSIZE(v, VARHDRSZ + len);
  return v;
}

void check_sketch_size(size_t len, const char* type_name) {
  if (len > MaxAllocSize - VARHDRSZ)
    ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                    errmsg("%s of %zu bytes exceeds the maximum value size of %zu bytes",
                           type_name, len, static_cast<size_t>(MaxAllocSize - VARHDRSZ))));
}

struct varlena* sketch_from_text(const char* text, Validator validate, const char* type_name) {
  const size_t text_len = std::strlen(text);
  const size_t len = hex_decoded_size(text_len);  // 0 when the length is impossible
  check_sketch_size(len, type_name);
  struct varlena* v = new_sketch(len);
  Status status = hex_decode(text, text_len, payload(v));
  if (status.is_ok()) status = validate(payload(v), len);
  if (!status.is_ok()) {
    pfree(v);
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("invalid input syntax for type %s", type_name),
                    errdetail("%s", status.message())));
  }
  return v;
}

char* sketch_to_text(const uint8* data, size_t len) {
  const size_t text_len = hex_text_size(len);
  char* text = static_cast<char*>(palloc(text_len + 1));
  hex_encode(data, len, text);
  text[text_len] = '\0';
  return text;
}

struct varlena* sketch_from_binary(const uint8* data, size_t len, Validator validate,
                                   const char* type_name) {
  const Status status = validate(data, len);
  if (!status.is_ok())
    ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                    errmsg("invalid binary data for type %s", type_name),
                    errdetail("%s", status.message())));
  struct varlena* v = new_sketch(len);
  std::memcpy(payload(v), data, len);
  return v;
}

struct varlena* sketch_from_recv(StringInfo buf, Validator validate, const char* type_name) {
  const auto* data = reinterpret_cast<const uint8*>(buf->data + buf->cursor);
  const size_t len = static_cast<size_t>(buf->len - buf->cursor);
  struct varlena* v = sketch_from_binary(data, len, validate, type_name);
  buf->cursor = buf->len;
  return v;
}

bool sketch_args_equal(FunctionCallInfo fcinfo) {
  const SketchBytes a = bytes_of(PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0)));
  const SketchBytes b = bytes_of(PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(1)));
  return a.len == b.len && std::memcmp(a.data, b.data, a.len) == 0;
}

bytea* sketch_to_send(const uint8* data, size_t len) {
  StringInfoData buf;
  pq_begintypsend(&buf);
  pq_sendbytes(&buf, reinterpret_cast<const char*>(data), static_cast<int>(len));
  return pq_endtypsend(&buf);
}

}  // namespace sketch::pg
