#include "pg/common/item_text.h"

#include <cstring>

#include "pg/common/fixed_settings.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace sketch::pg {

void init_item_source(FunctionCallInfo fcinfo, int argno, ItemSource* source) {
  init_element_hasher(fcinfo, argno, &source->hasher);
  Oid output;
  bool is_varlena;
  getTypeOutputInfo(source->hasher.type, &output, &is_varlena);
  fmgr_info_cxt(output, &source->output, fcinfo->flinfo->fn_mcxt);
  source->output_depends_on_settings = text_depends_on_settings(source->hasher.type);
  switch (getBaseType(source->hasher.type)) {
    case INT2OID:
    case INT4OID:
    case INT8OID: source->direct = ItemSource::Direct::kInteger; break;
    case TEXTOID:
    case VARCHAROID: source->direct = ItemSource::Direct::kTextBytes; break;
    default: source->direct = ItemSource::Direct::kNone;
  }
}

namespace {

int64 integer_of(const ElementHasher* hasher, Datum value) {
  switch (hasher->encoding) {
    case ElementEncoding::kInt16: return DatumGetInt16(value);
    case ElementEncoding::kInt32: return DatumGetInt32(value);
    default: return DatumGetInt64(value);
  }
}

ItemText clipped_text(const char* text, int len, uint32 max_bytes, char* allocated) {
  const bool clipped = len > static_cast<int>(max_bytes);
  if (clipped) len = pg_mbcliplen(text, len, static_cast<int>(max_bytes));
  return ItemText{reinterpret_cast<const uint8*>(text), static_cast<uint32>(len), clipped,
                  allocated};
}

}  // namespace

ItemText item_text(const ItemSource* source, Datum value, uint32 max_bytes,
                   char (&digits)[kItemDigitsBytes]) {
  switch (source->direct) {
    case ItemSource::Direct::kInteger: {
      // What int2out, int4out and int8out print.
      const int len = pg_lltoa(integer_of(&source->hasher, value), digits);
      return ItemText{reinterpret_cast<const uint8*>(digits), static_cast<uint32>(len), false,
                      nullptr};
    }
    case ItemSource::Direct::kTextBytes: {
      // textout and varcharout print the bytes as they are.
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      char* copy = v == reinterpret_cast<struct varlena*>(DatumGetPointer(value))
                       ? nullptr
                       : reinterpret_cast<char*>(const_cast<struct varlena*>(v));
      return clipped_text(VARDATA_ANY(v), static_cast<int>(VARSIZE_ANY_EXHDR(v)), max_bytes,
                          copy);
    }
    case ItemSource::Direct::kNone: break;
  }
  char* text = output_with_fixed_settings(const_cast<FmgrInfo*>(&source->output), value,
                                          source->output_depends_on_settings);
  return clipped_text(text, static_cast<int>(std::strlen(text)), max_bytes, text);
}

void init_item_reader(FunctionCallInfo fcinfo, int hint_argno, const char* function,
                      ItemReader* reader) {
  reader->typed = hint_argno >= 0;
  reader->type = TEXTOID;
  reader->ioparam = InvalidOid;
  reader->depends_on_settings = false;
  if (!reader->typed) return;
  reader->type = get_fn_expr_argtype(fcinfo->flinfo, hint_argno);
  if (!OidIsValid(reader->type))
    ereport(ERROR, (errcode(ERRCODE_INDETERMINATE_DATATYPE),
                    errmsg("%s: could not determine the type of the type hint", function)));
  Oid input;
  getTypeInputInfo(reader->type, &input, &reader->ioparam);
  fmgr_info(input, &reader->input);
  reader->depends_on_settings = text_depends_on_settings(reader->type);
}

Datum read_item(const ItemReader* reader, const uint8* text, uint32 len, bool clipped,
                uint32 max_bytes, const char* function) {
  if (!reader->typed)
    return PointerGetDatum(cstring_to_text_with_len(reinterpret_cast<const char*>(text), len));
  if (clipped)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s: a text clipped at %u bytes cannot be read as type %s", function,
                           max_bytes, format_type_be(reader->type)),
                    errhint("Call %s without the type hint to get the items as text.",
                            function)));
  char* copy = pnstrdup(reinterpret_cast<const char*>(text), len);
  // Texts were made under fixed settings (fixed_settings.h).
  return input_with_fixed_settings(const_cast<FmgrInfo*>(&reader->input), copy, reader->ioparam,
                                   -1, reader->depends_on_settings);
}

}  // namespace sketch::pg
